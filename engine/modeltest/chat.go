package modeltest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// chatRequest is what the server reads of a Chat Completions request.
type chatRequest struct {
	Model    string        `json:"model"`
	Stream   bool          `json:"stream"`
	Messages []chatMessage `json:"messages"`
	Tools    []struct {
		Function struct {
			Name       string `json:"name"`
			Parameters struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// chatCompletions answers POST /v1/chat/completions: the script's next
// step, streamed as chunks with a final usage chunk when asked.
func (s *Server) chatCompletions(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		openAIError(w, http.StatusBadRequest, err.Error())
		return
	}
	first, assistants := chatTurns(req)
	task, parts, err := s.respond(first, assistants, chatOffered(req), "call")
	if err != nil {
		openAIError(w, http.StatusBadRequest, err.Error())
		return
	}
	content, calls := chatOutput(parts)
	cached := s.cacheRead(task+"\x00"+first, body)
	out, _ := json.Marshal(map[string]any{"content": content, "calls": calls})
	u := Usage{Input: (len(body) - cached) / 4, CacheRead: cached / 4, Output: len(out)/4 + 1}
	s.answered(r, task, calls, u)
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	usage := map[string]any{"prompt_tokens": u.Input + u.CacheRead, "completion_tokens": u.Output, "total_tokens": u.Input + u.CacheRead + u.Output,
		"prompt_tokens_details": map[string]int{"cached_tokens": u.CacheRead}}
	id, created := nextID("chatcmpl"), time.Now().Unix()
	if !req.Stream {
		msg := map[string]any{"role": "assistant", "content": content}
		if len(calls) > 0 {
			msg["tool_calls"] = chatToolCalls(calls)
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": id, "object": "chat.completion", "created": created, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	streamChat(w, map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": req.Model}, content, calls, finish, usage)
}

// chatTurns returns the first user message's text and how many assistant
// messages the conversation holds.
func chatTurns(req chatRequest) (first string, assistants int) {
	for _, m := range req.Messages {
		switch {
		case m.Role == "assistant":
			assistants++
		case m.Role == "user" && first == "":
			first = chatText(m.Content)
		}
	}
	return first, assistants
}

// chatOffered returns the tools the request offers, by name.
func chatOffered(req chatRequest) map[string]Tool {
	offered := map[string]Tool{}
	for _, t := range req.Tools {
		offered[t.Function.Name] = toolOf(t.Function.Name, t.Function.Parameters.Properties)
	}
	return offered
}

// chatOutput splits the answer's parts into its text and its calls.
func chatOutput(parts []part) (content string, calls []Call) {
	var text []string
	for _, p := range parts {
		if p.Call != nil {
			calls = append(calls, *p.Call)
		} else {
			text = append(text, p.Text)
		}
	}
	return strings.Join(text, "\n\n"), calls
}

// streamChat streams a completion as chunks, each with head's fields: the
// role, the text in pieces, each call with its arguments in pieces, the
// finish reason, then the usage.
func streamChat(w http.ResponseWriter, head map[string]any, content string, calls []Call, finish string, usage map[string]any) {
	sse := newSSE(w)
	send := func(fields map[string]any) {
		for k, v := range head {
			fields[k] = v
		}
		sse.data(fields)
	}
	chunk := func(delta map[string]any, finishReason any) {
		send(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finishReason}}})
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	for _, piece := range chunks(content, 16) {
		if piece != "" {
			chunk(map[string]any{"content": piece}, nil)
		}
	}
	for i, c := range calls {
		args, _ := json.Marshal(c.Input)
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""}}}}, nil)
		for _, piece := range chunks(string(args), 24) {
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": piece}}}}, nil)
		}
	}
	chunk(map[string]any{}, finish)
	send(map[string]any{"choices": []any{}, "usage": usage})
	sse.raw("[DONE]")
}

// chatToolCalls renders calls as a Chat Completions message's tool_calls.
func chatToolCalls(calls []Call) []any {
	out := make([]any, len(calls))
	for i, c := range calls {
		args, _ := json.Marshal(c.Input)
		out[i] = map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": string(args)}}
	}
	return out
}

// chatText is the text of a Chat Completions content: a string, or its
// text parts joined.
func chatText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	var out []string
	for _, p := range parts {
		if p.Text != "" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

// chatToolResults returns the text of each tool message of a Chat
// Completions request, by the id of its call.
func chatToolResults(body []byte) map[string]string {
	var req chatRequest
	out := map[string]string{}
	if json.Unmarshal(body, &req) != nil {
		return out
	}
	for _, m := range req.Messages {
		if m.Role == "tool" {
			out[m.ToolCallID] = chatText(m.Content)
		}
	}
	return out
}

// chatToolCallsSent returns the arguments of each tool call of the
// request's assistant messages, by call id.
func chatToolCallsSent(body []byte) map[string]json.RawMessage {
	var req chatRequest
	out := map[string]json.RawMessage{}
	if json.Unmarshal(body, &req) != nil {
		return out
	}
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			out[c.ID] = json.RawMessage(c.Function.Arguments)
		}
	}
	return out
}

func openAIError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error"}})
}

// sse writes server-sent events, flushing each.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	f, _ := w.(http.Flusher)
	return sse{w, f}
}

// data writes one data-only event of v as JSON.
func (e sse) data(v any) {
	b, _ := json.Marshal(v)
	e.raw(string(b))
}

// event writes one named event with data.
func (e sse) event(name string, data []byte) {
	fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", name, data)
	if e.f != nil {
		e.f.Flush()
	}
}

func (e sse) raw(s string) {
	fmt.Fprintf(e.w, "data: %s\n\n", s)
	if e.f != nil {
		e.f.Flush()
	}
}
