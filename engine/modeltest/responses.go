package modeltest

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"strings"
	"time"
)

// responsesRequest is what the server reads of a Responses request.
type responsesRequest struct {
	Model  string          `json:"model"`
	Stream bool            `json:"stream"`
	Input  json.RawMessage `json:"input"`
	Tools  []struct {
		Type       string `json:"type"`
		Name       string `json:"name"`
		Parameters struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"parameters"`
	} `json:"tools"`
}

// responsesItem is an input item of a Responses request.
type responsesItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"` // a JSON string; a tool search's, an object
	Input     string          `json:"input"`
	Output    json.RawMessage `json:"output"`
	// Tools are what a tool search found: tools, or namespaces of them.
	Tools []searchedTool `json:"tools"`
}

// searchedTool is a tool a client-side tool search found, or a namespace
// whose tools it found.
type searchedTool struct {
	Type       string `json:"type"`
	Name       string `json:"name"`
	Parameters struct {
		Properties map[string]json.RawMessage `json:"properties"`
	} `json:"parameters"`
	Tools []searchedTool `json:"tools"`
}

// offer adds the tools a tool search found to offered, each with its
// namespace.
func offer(offered map[string]Tool, found []searchedTool, namespace string) {
	for _, t := range found {
		if t.Type == "namespace" {
			offer(offered, t.Tools, t.Name)
			continue
		}
		tool := toolOf(t.Name, t.Parameters.Properties)
		tool.Namespace = namespace
		offered[t.Name] = tool
	}
}

// modelItem reports whether an input item is one the model produced.
func modelItem(it responsesItem) bool {
	switch it.Type {
	case "function_call", "custom_tool_call", "reasoning", "local_shell_call":
		return true
	case "message", "":
		return it.Role == "assistant"
	}
	return false
}

// responsesItems reads a request's input: a string is one user message.
func responsesItems(raw json.RawMessage) []responsesItem {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		b, _ := json.Marshal([]map[string]any{{"type": "input_text", "text": s}})
		return []responsesItem{{Type: "message", Role: "user", Content: b}}
	}
	var items []responsesItem
	json.Unmarshal(raw, &items)
	return items
}

// responses answers POST /v1/responses: the script's next step, streamed
// as the Responses API streams, usage in response.completed.
func (s *Server) responses(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req responsesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		openAIError(w, http.StatusBadRequest, err.Error())
		return
	}
	users, turns := responsesTurns(req)
	task, parts, err := s.respondTo(users, turns, responsesOffered(req), "call")
	if err != nil {
		openAIError(w, http.StatusBadRequest, err.Error())
		return
	}
	calls, output := responsesOutput(parts)
	cached := s.cacheRead(task+"\x00"+strings.Join(users, "\x00"), body)
	out, _ := json.Marshal(output)
	u := Usage{Input: (len(body) - cached) / 4, CacheRead: cached / 4, Output: len(out)/4 + 1}
	s.answered(r, task, calls, u)
	usage := map[string]any{"input_tokens": u.Input + u.CacheRead, "input_tokens_details": map[string]int{"cached_tokens": u.CacheRead},
		"output_tokens": u.Output, "output_tokens_details": map[string]int{"reasoning_tokens": 0}, "total_tokens": u.Input + u.CacheRead + u.Output}
	resp := map[string]any{"id": nextID("resp"), "object": "response", "created_at": time.Now().Unix(), "model": req.Model,
		"status": "completed", "output": output, "usage": usage}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(resp)
		return
	}
	streamResponse(w, resp, output)
}

// responsesTurns returns the user messages of a request's input, and how
// many model turns it holds (runs of the model's items).
func responsesTurns(req responsesRequest) (users []string, turns int) {
	inTurn := false
	for _, it := range responsesItems(req.Input) {
		switch {
		case modelItem(it):
			if !inTurn {
				turns++
			}
			inTurn = true
			continue
		case it.Type == "message" && it.Role == "user":
			users = append(users, chatText(it.Content))
		}
		inTurn = false
	}
	return users, turns
}

// responsesOffered returns the tools a request offers, by name: its
// function and custom tools, tool search, and the tools a tool search
// already returned.
func responsesOffered(req responsesRequest) map[string]Tool {
	offered := map[string]Tool{}
	for _, t := range req.Tools {
		switch t.Type {
		case "function", "custom":
			tool := toolOf(t.Name, t.Parameters.Properties)
			tool.Freeform = t.Type == "custom"
			offered[t.Name] = tool
		case "tool_search":
			offered["tool_search"] = Tool{Name: "tool_search", Search: true}
		}
	}
	for _, it := range responsesItems(req.Input) {
		if it.Type == "tool_search_output" {
			offer(offered, it.Tools, "")
		}
	}
	return offered
}

// responsesOutput returns the output items of a reply's parts, and the
// calls among them.
func responsesOutput(parts []part) (calls []Call, output []map[string]any) {
	for _, p := range parts {
		if p.Call == nil {
			output = append(output, map[string]any{"type": "message", "id": nextID("msg"), "role": "assistant", "status": "completed",
				"content": []any{map[string]any{"type": "output_text", "text": p.Text, "annotations": []any{}}}})
			continue
		}
		calls = append(calls, *p.Call)
		switch {
		case p.Call.Search:
			output = append(output, map[string]any{"type": "tool_search_call", "id": nextID("tsc"), "call_id": p.Call.ID, "execution": "client",
				"arguments": p.Call.Input, "status": "completed"})
		case p.Call.Freeform:
			output = append(output, map[string]any{"type": "custom_tool_call", "id": nextID("ctc"), "call_id": p.Call.ID, "name": p.Call.Name,
				"input": p.Call.Text, "status": "completed"})
		default:
			args, _ := json.Marshal(p.Call.Input)
			call := map[string]any{"type": "function_call", "id": nextID("fc"), "call_id": p.Call.ID, "name": p.Call.Name,
				"arguments": string(args), "status": "completed"}
			if p.Call.Namespace != "" {
				call["namespace"] = p.Call.Namespace
			}
			output = append(output, call)
		}
	}
	return calls, output
}

// streamResponse streams resp as the Responses API does: created, each
// output item added, its deltas, done, then completed.
func streamResponse(w http.ResponseWriter, resp map[string]any, output []map[string]any) {
	e := newSSE(w)
	seq := 0
	send := func(typ string, fields map[string]any) {
		fields["type"], fields["sequence_number"] = typ, seq
		seq++
		b, _ := json.Marshal(fields)
		e.event(typ, b)
	}
	created := maps.Clone(resp)
	created["status"], created["output"] = "in_progress", []any{}
	delete(created, "usage")
	send("response.created", map[string]any{"response": created})
	for i, item := range output {
		added := maps.Clone(item)
		added["status"] = "in_progress"
		switch item["type"] {
		case "message":
			added["content"] = []any{}
			send("response.output_item.added", map[string]any{"output_index": i, "item": added})
			text := item["content"].([]any)[0].(map[string]any)["text"].(string)
			for _, piece := range chunks(text, 16) {
				send("response.output_text.delta", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "delta": piece})
			}
			send("response.output_text.done", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "text": text})
		case "function_call":
			added["arguments"] = ""
			send("response.output_item.added", map[string]any{"output_index": i, "item": added})
			args := item["arguments"].(string)
			for _, piece := range chunks(args, 24) {
				send("response.function_call_arguments.delta", map[string]any{"item_id": item["id"], "output_index": i, "delta": piece})
			}
			send("response.function_call_arguments.done", map[string]any{"item_id": item["id"], "output_index": i, "arguments": args})
		case "custom_tool_call":
			added["input"] = ""
			send("response.output_item.added", map[string]any{"output_index": i, "item": added})
			text := item["input"].(string)
			for _, piece := range chunks(text, 24) {
				send("response.custom_tool_call_input.delta", map[string]any{"item_id": item["id"], "output_index": i, "delta": piece})
			}
			send("response.custom_tool_call_input.done", map[string]any{"item_id": item["id"], "output_index": i, "input": text})
		case "tool_search_call":
			send("response.output_item.added", map[string]any{"output_index": i, "item": added})
		}
		send("response.output_item.done", map[string]any{"output_index": i, "item": item})
	}
	send("response.completed", map[string]any{"response": resp})
}

// responsesToolResults returns the output of each function call output of
// a Responses request, by call id.
func responsesToolResults(body []byte) map[string]string {
	var req responsesRequest
	out := map[string]string{}
	if json.Unmarshal(body, &req) != nil {
		return out
	}
	for _, it := range responsesItems(req.Input) {
		switch it.Type {
		case "function_call_output", "custom_tool_call_output":
			var s string
			if json.Unmarshal(it.Output, &s) != nil {
				s = chatText(it.Output)
			}
			out[it.CallID] = s
		case "tool_search_output":
			b, _ := json.Marshal(it.Tools)
			out[it.CallID] = string(b)
		}
	}
	return out
}

// responsesToolCallsSent returns the arguments of each function call of a
// Responses request's input, by call id; a freeform call's text as a
// JSON string.
func responsesToolCallsSent(body []byte) map[string]json.RawMessage {
	var req responsesRequest
	out := map[string]json.RawMessage{}
	if json.Unmarshal(body, &req) != nil {
		return out
	}
	for _, it := range responsesItems(req.Input) {
		switch it.Type {
		case "function_call":
			var args string
			json.Unmarshal(it.Arguments, &args)
			out[it.CallID] = json.RawMessage(args)
		case "tool_search_call":
			out[it.CallID] = it.Arguments
		case "custom_tool_call":
			b, _ := json.Marshal(it.Input)
			out[it.CallID] = b // a freeform call's text, as a JSON string
		}
	}
	return out
}
