package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Client embeds texts with an OpenAI-compatible embeddings API (OpenAI,
// Ollama, vLLM, llama.cpp server …): POST {BaseURL}/embeddings with
// {"model", "input": [...]}. The key is sent as a bearer token and never
// written anywhere.
type Client struct {
	BaseURL string // such as "http://localhost:11434/v1"
	Model   string // such as "all-minilm"
	Key     string // may be empty for local servers
	// Dimensions is the vector length; 0 learns it from the first reply.
	Dimensions int
	// Batch bounds the texts per request; 0 means 64.
	Batch int
	HTTP  *http.Client
}

// Name returns "openai:" and the model.
func (c *Client) Name() string { return "openai:" + c.Model }

// Dim returns the vector length, 0 until known.
func (c *Client) Dim() int { return c.Dimensions }

type embedRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embedResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// Embed requests vectors in batches and returns them normalized. A reply
// with a missing index or vectors of differing lengths is an error.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	batch := c.Batch
	if batch <= 0 {
		batch = 64
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += batch {
		part := texts[start:min(start+batch, len(texts))]
		vs, err := c.embedBatch(ctx, part)
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
	}
	return out, nil
}

func (c *Client) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	body, _ := json.Marshal(embedRequest{Model: c.Model, Input: texts})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(c.BaseURL, "/")+"/embeddings", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.Key != "" {
		req.Header.Set("Authorization", "Bearer "+c.Key)
	}
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 2 * time.Minute}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("embed: read reply: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("embed: %s: %s", resp.Status, strings.TrimSpace(string(data[:min(len(data), 300)])))
	}
	var er embedResponse
	if err := json.Unmarshal(data, &er); err != nil {
		return nil, fmt.Errorf("embed: bad reply: %w", err)
	}
	return c.collect(er, len(texts))
}

func (c *Client) collect(er embedResponse, n int) ([][]float32, error) {
	out := make([][]float32, n)
	for _, d := range er.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("embed: reply has bad or repeated index %d", d.Index)
		}
		if c.Dimensions == 0 {
			c.Dimensions = len(d.Embedding)
		}
		if len(d.Embedding) != c.Dimensions || c.Dimensions == 0 {
			return nil, fmt.Errorf("embed: vector %d has %d dimensions, want %d", d.Index, len(d.Embedding), c.Dimensions)
		}
		Normalize(d.Embedding)
		out[d.Index] = d.Embedding
	}
	for i, v := range out {
		if v == nil {
			return nil, fmt.Errorf("embed: reply lacks vector %d", i)
		}
	}
	return out, nil
}
