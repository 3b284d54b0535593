package modeltest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
)

// anthropicRequest is what the server reads of a Messages request.
type anthropicRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name        string `json:"name"`
		InputSchema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"input_schema"`
	} `json:"tools"`
}

// anthropicBlock is a content block of a response.
type anthropicBlock struct {
	Type  string         `json:"type"`
	Text  string         `json:"text,omitempty"`
	ID    string         `json:"id,omitempty"`
	Name  string         `json:"name,omitempty"`
	Input map[string]any `json:"input,omitempty"`
}

var ids atomic.Int64

func nextID(prefix string) string { return fmt.Sprintf("%s_%06d", prefix, ids.Add(1)) }

// anthropicMessages answers POST /v1/messages: the script's next step for
// the conversation, streamed as server-sent events when asked.
func (s *Server) anthropicMessages(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req anthropicRequest
	if err := json.Unmarshal(body, &req); err != nil {
		anthropicError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	first := ""
	assistants := 0
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			assistants++
		} else if first == "" && m.Role == "user" {
			first = anthropicText(m.Content)
		}
	}
	offered := map[string]Tool{}
	for _, t := range req.Tools {
		offered[t.Name] = toolOf(t.Name, t.InputSchema.Properties)
	}
	task, parts, err := s.respond(first, assistants, offered, "toolu")
	if err != nil {
		anthropicError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	var calls []Call
	var blocks []anthropicBlock
	stop := "end_turn"
	for _, p := range parts {
		if p.Call == nil {
			blocks = append(blocks, anthropicBlock{Type: "text", Text: p.Text})
			continue
		}
		calls, stop = append(calls, *p.Call), "tool_use"
		blocks = append(blocks, anthropicBlock{Type: "tool_use", ID: p.Call.ID, Name: p.Call.Name, Input: p.Call.Input})
	}
	cached := s.cacheRead(first, body)
	s.answered(r, task, calls, Usage{Input: (len(body) - cached) / 4, CacheRead: cached / 4, Output: outputTokens(blocks)})
	usage := map[string]int{
		"input_tokens":                (len(body) - cached) / 4,
		"cache_read_input_tokens":     cached / 4,
		"cache_creation_input_tokens": 0,
		"output_tokens":               outputTokens(blocks),
	}
	msg := map[string]any{"id": nextID("msg"), "type": "message", "role": "assistant", "model": req.Model,
		"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": usage}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(msg)
		return
	}
	streamAnthropic(w, msg, blocks, stop, usage)
}

// streamAnthropic writes msg as the Messages API streams it.
func streamAnthropic(w http.ResponseWriter, msg map[string]any, blocks []anthropicBlock, stop string, usage map[string]int) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher, _ := w.(http.Flusher)
	send := func(event string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"] = []any{}
	start["stop_reason"] = nil
	start["usage"] = map[string]int{"input_tokens": usage["input_tokens"], "cache_read_input_tokens": usage["cache_read_input_tokens"],
		"cache_creation_input_tokens": 0, "output_tokens": 1}
	send("message_start", map[string]any{"type": "message_start", "message": start})
	for i, b := range blocks {
		switch b.Type {
		case "text":
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			for _, part := range chunks(b.Text, 16) {
				send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": part}})
			}
		case "tool_use":
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}})
			args, _ := json.Marshal(b.Input)
			for _, part := range chunks(string(args), 24) {
				send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
			}
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": usage["output_tokens"]}})
	send("message_stop", map[string]any{"type": "message_stop"})
}

// anthropicCountTokens answers the token-counting endpoint with the
// server's own count: a quarter of the body's bytes.
func (s *Server) anthropicCountTokens(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	body, _ := io.ReadAll(r.Body)
	json.NewEncoder(w).Encode(map[string]int{"input_tokens": len(body) / 4})
}

func anthropicError(w http.ResponseWriter, status int, kind, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"type": "error", "error": map[string]string{"type": kind, "message": msg}})
}

// anthropicText is the text of a message's content: a string, or its text
// blocks joined.
func anthropicText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// outputTokens is the server's count of a response: a quarter of its JSON.
func outputTokens(blocks []anthropicBlock) int {
	b, _ := json.Marshal(blocks)
	return len(b)/4 + 1
}

// chunks cuts s into pieces of at most n bytes, at rune boundaries.
func chunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

// anthropicToolResults returns the text of each tool result a Messages
// request carries, by the id of its call.
func anthropicToolResults(body []byte) map[string]string {
	var req struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	out := map[string]string{}
	if json.Unmarshal(body, &req) != nil {
		return out
	}
	for _, m := range req.Messages {
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				out[b.ToolUseID] = anthropicText(b.Content)
			}
		}
	}
	return out
}

// anthropicToolCallsSent returns the arguments of each tool call that a
// Messages request carries in its assistant messages, by call id: the
// calls as the model received them back.
func anthropicToolCallsSent(body []byte) map[string]json.RawMessage {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	out := map[string]json.RawMessage{}
	if json.Unmarshal(body, &req) != nil {
		return out
	}
	for _, m := range req.Messages {
		var blocks []struct {
			Type  string          `json:"type"`
			ID    string          `json:"id"`
			Input json.RawMessage `json:"input"`
		}
		if m.Role != "assistant" || json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_use" {
				out[b.ID] = b.Input
			}
		}
	}
	return out
}
