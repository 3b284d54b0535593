package proxyrec

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"ctxscope/engine/proxy"
	"ctxscope/engine/session"
)

// TestMemoReadsAsWithout grows a conversation of each API, whose every
// request repeats the one before it, with messages that repeat within a
// request too, and checks that a decoder with the memo reads the same
// session as one that reads every message afresh, and that the memo
// keeps only the latest request's messages.
func TestMemoReadsAsWithout(t *testing.T) {
	for _, api := range []proxy.API{proxy.APIChat, proxy.APIAnthropic, proxy.APIResponses, proxy.APIGemini} {
		t.Run(string(api), func(t *testing.T) {
			with, without := newDecoder("c.jsonl"), newDecoder("c.jsonl")
			var history []any
			for n := 1; n <= 6; n++ {
				history = append(history, growth(api, n)...)
				body, _ := json.Marshal(requestOf(api, history))
				rec := &proxy.Record{Version: proxy.RecordVersion, Seq: n, API: api, Status: 200, Started: time.Unix(int64(n), 0), Request: proxy.Body{Text: string(body)}}
				checkLayout(t, string(body), with.record(rec, n))
				without.memo = &messageMemo{readOnly: true}
				without.record(rec, n)
				if len(with.memo.latest) == 0 || len(with.memo.latest) > len(history) {
					t.Fatalf("request %d: the memo keeps %d messages of %d elements", n, len(with.memo.latest), len(history))
				}
			}
			if !reflect.DeepEqual(deepEntries(with.s), deepEntries(without.s)) {
				t.Error("the memo changes what is read")
			}
			if len(with.s.Main().Entries) < 12 {
				t.Errorf("%d entries", len(with.s.Main().Entries))
			}
		})
	}
}

// deepEntries lists the main thread's entries with their messages by
// value.
func deepEntries(s *session.Session) []any {
	var out []any
	for _, e := range s.Main().Entries {
		out = append(out, *e, *e.Message)
	}
	return out
}

// growth is what request n of a conversation of api adds to the one
// before it: a user turn the first time, then the model's call and its
// result, and an injected note the same at every request.
func growth(api proxy.API, n int) []any {
	id, out := fmt.Sprintf("call_%d", n), fmt.Sprintf("output %d\nwith \"quotes\"", n)
	note := "<system-reminder>the same note</system-reminder>"
	switch api {
	case proxy.APIChat:
		if n == 1 {
			return []any{map[string]any{"role": "system", "content": "be brief"}, map[string]any{"role": "user", "content": "go"}}
		}
		return []any{map[string]any{"role": "assistant", "reasoning_content": "think", "tool_calls": []any{map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "read", "arguments": `{"path":"a"}`}}}},
			map[string]any{"role": "tool", "tool_call_id": id, "content": out}, map[string]any{"role": "user", "content": note}}
	case proxy.APIAnthropic:
		if n == 1 {
			return []any{map[string]any{"role": "user", "content": "go"}}
		}
		return []any{map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "thinking", "thinking": "think"}, map[string]any{"type": "tool_use", "id": id, "name": "read", "input": map[string]any{"path": "a"}}}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": out}, map[string]any{"type": "text", "text": note}}}}
	case proxy.APIResponses:
		if n == 1 {
			return []any{map[string]any{"type": "message", "role": "developer", "content": "be brief"}, map[string]any{"type": "message", "role": "user", "content": "go"}}
		}
		return []any{map[string]any{"type": "reasoning", "summary": []any{map[string]any{"type": "summary_text", "text": "think"}}},
			map[string]any{"type": "function_call", "call_id": id, "name": "read", "arguments": `{"path":"a"}`},
			map[string]any{"type": "function_call_output", "call_id": id, "output": out},
			map[string]any{"type": "message", "role": "user", "content": note}}
	}
	if n == 1 {
		return []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "go"}}}}
	}
	return []any{map[string]any{"role": "model", "parts": []any{map[string]any{"text": "think", "thought": true}, map[string]any{"functionCall": map[string]any{"name": "read", "args": map[string]any{"path": "a"}}}}},
		map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{"name": "read", "response": map[string]any{"output": out}}}}},
		map[string]any{"role": "user", "parts": []any{map[string]any{"text": note}}}}
}

// requestOf is a request body of api with history as its messages.
func requestOf(api proxy.API, history []any) map[string]any {
	tools := []any{map[string]any{"name": "read", "input_schema": map[string]any{"type": "object"}}}
	switch api {
	case proxy.APIResponses:
		return map[string]any{"model": "m", "instructions": "you code", "tools": tools, "input": history}
	case proxy.APIGemini:
		return map[string]any{"systemInstruction": map[string]any{"parts": []any{map[string]any{"text": "you code"}}}, "contents": history,
			"tools": []any{map[string]any{"functionDeclarations": tools}}}
	case proxy.APIAnthropic:
		return map[string]any{"model": "m", "system": "you code", "tools": tools, "messages": history}
	}
	return map[string]any{"model": "m", "tools": tools, "messages": history}
}

// TestToolSearchItems reads a Responses request that carries a client-side
// tool search (Codex defers its MCP tools until the model searches): the
// search is a call of the model, and what it found, the tools' schemas, is
// its result, which the model reads.
func TestToolSearchItems(t *testing.T) {
	body := `{"model":"m","input":[{"type":"message","role":"user","content":"go"},` +
		`{"type":"tool_search_call","call_id":"s1","execution":"client","status":"completed","arguments":{"query":"recall","limit":8}},` +
		`{"type":"tool_search_output","call_id":"s1","execution":"client","status":"completed","tools":[{"type":"namespace","name":"mcp__ctxscope","tools":[{"type":"function","name":"recall"}]}]},` +
		`{"type":"function_call","call_id":"c1","name":"recall","namespace":"mcp__ctxscope","arguments":"{\"query\":\"notes\"}"}]}`
	req := readRequest(proxy.APIResponses, body, &messageMemo{})
	if len(req.messages) != 4 {
		t.Fatalf("%d messages", len(req.messages))
	}
	search, found, call := req.messages[1], req.messages[2], req.messages[3]
	if search.Role != session.RoleAssistant || search.Blocks[0].ToolName != "tool_search" || string(search.Blocks[0].Arguments) != `{"query":"recall","limit":8}` {
		t.Errorf("the search: %+v", search)
	}
	if found.Role != session.RoleTool || found.Blocks[0].ToolCallID != "s1" || len(found.Blocks[0].Content) != 1 ||
		found.Blocks[0].Content[0].Text != `[{"type":"namespace","name":"mcp__ctxscope","tools":[{"type":"function","name":"recall"}]}]` {
		t.Errorf("what it found: %+v", found)
	}
	if call.Blocks[0].ToolName != "recall" {
		t.Errorf("the call: %+v", call)
	}
}
