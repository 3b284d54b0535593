// Package llm is the model-backed writer of the memory: a client for the
// OpenAI-compatible chat-completions API (OpenAI, Ollama, vLLM, llama.cpp
// server, hosted models), the prompts ctxscope wrote in the spirit of
// MemWeaver's (entity and relation extraction, temporal normalization,
// session review, cluster coherence, themes, experiences, routing,
// answers), and strict validation of every item a model returns: a
// malformed item is rejected with a logged reason and never stored.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// Client calls POST {BaseURL}/chat/completions. The key is sent as a
// bearer token and never written anywhere.
type Client struct {
	BaseURL   string // such as "http://localhost:11434/v1"
	Model     string
	Key       string
	MaxTokens int // 0 means 4000, the reference's setting
	// JSONMode asks for {"response_format": {"type": "json_object"}}.
	JSONMode bool
	HTTP     *http.Client
}

// FromEnv returns a client configured from CTXSCOPE_LLM_URL,
// CTXSCOPE_LLM_MODEL and CTXSCOPE_LLM_KEY (or OPENAI_API_KEY), with url
// and model overriding the environment when not empty.
func FromEnv(url, model string) (*Client, error) {
	c := &Client{BaseURL: os.Getenv("CTXSCOPE_LLM_URL"), Model: os.Getenv("CTXSCOPE_LLM_MODEL"), JSONMode: true}
	if url != "" {
		c.BaseURL = url
	}
	if model != "" {
		c.Model = model
	}
	c.Key = os.Getenv("CTXSCOPE_LLM_KEY")
	if c.Key == "" {
		c.Key = os.Getenv("OPENAI_API_KEY")
	}
	if c.BaseURL == "" || c.Model == "" {
		return nil, errors.New("llm: no model configured (set --llm-url and --llm-model, or CTXSCOPE_LLM_URL and CTXSCOPE_LLM_MODEL)")
	}
	return c, nil
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model          string          `json:"model"`
	Messages       []message       `json:"messages"`
	Temperature    float64         `json:"temperature"`
	MaxTokens      int             `json:"max_tokens"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
}

type responseFormat struct {
	Type string `json:"type"`
}

type chatResponse struct {
	Choices []struct {
		Message message `json:"message"`
	} `json:"choices"`
}

// systemJSON is the system message for JSON answers, the reference's.
const systemJSON = "You must respond with a JSON object that matches the schema."

// Complete sends one user prompt and returns the model's text.
func (c *Client) Complete(ctx context.Context, prompt string, temperature float64) (string, error) {
	req := chatRequest{Model: c.Model, Temperature: temperature, MaxTokens: c.MaxTokens,
		Messages: []message{{"system", systemJSON}, {"user", prompt}}}
	if req.MaxTokens == 0 {
		req.MaxTokens = 4000
	}
	if c.JSONMode {
		req.ResponseFormat = &responseFormat{"json_object"}
	}
	body, _ := json.Marshal(req)
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(c.BaseURL, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("llm: %w", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	if c.Key != "" {
		hr.Header.Set("Authorization", "Bearer "+c.Key)
	}
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 5 * time.Minute}
	}
	resp, err := hc.Do(hr)
	if err != nil {
		return "", fmt.Errorf("llm: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return "", fmt.Errorf("llm: read reply: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("llm: %s: %s", resp.Status, strings.TrimSpace(string(data[:min(len(data), 300)])))
	}
	var cr chatResponse
	if err := json.Unmarshal(data, &cr); err != nil {
		return "", fmt.Errorf("llm: bad reply: %w", err)
	}
	if len(cr.Choices) == 0 {
		return "", errors.New("llm: reply has no choices")
	}
	return cr.Choices[0].Message.Content, nil
}

// JSON asks for a JSON object, retrying up to tries times with the
// temperature lowered by 0.1 each time (floor 0) as the reference does,
// and returns the object's fields. Parsing is tolerant in the reference's
// way: the text from the first "{" to the last "}", trailing commas
// removed.
func (c *Client) JSON(ctx context.Context, prompt string, temperature float64, tries int) (map[string]json.RawMessage, error) {
	var last error
	for r := 0; r < max(tries, 1); r++ {
		text, err := c.Complete(ctx, prompt, max(0, temperature-0.1*float64(r)))
		if err != nil {
			last = err
			continue
		}
		obj, err := ParseObject(text)
		if err == nil {
			return obj, nil
		}
		last = err
	}
	return nil, last
}
