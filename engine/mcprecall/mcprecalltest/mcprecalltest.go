// Package mcprecalltest records conversations under live eviction, for
// the tests of the MCP recall server and of the command that serves it.
package mcprecalltest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/evict"
	"ctxscope/engine/proxy"
)

// file is a file the conversation reads, with words no other file has.
type file struct{ path, text string }

// files are the files the conversation reads; parser.go's functions are
// parseToken and scanIdentifier.
var files = []file{
	{"parser.go", strings.Repeat("func parseToken(lexer *Lexer) Token { return lexer.scanIdentifier() }\n", 60)},
	{"cache.go", strings.Repeat("func (c *Cache) evictOldest() { delete(c.entries, c.lru.Back()) }\n", 60)},
	{"router.go", strings.Repeat("func (r *Router) matchRoute(path string) Handler { return r.trie.lookup(path) }\n", 60)},
	{"config.go", strings.Repeat("func loadConfig(path string) (*Config, error) { return parseYAML(path) }\n", 60)},
}

// RecordConversation plays a Chat Completions conversation through an
// evictor at budget, as the proxy would, writing its records into dir:
// rounds of reading two files, running the tests and editing, each round
// announced so that episodes can be inferred. It returns the records.
func RecordConversation(t testing.TB, dir string, budget int) []*proxy.Record {
	t.Helper()
	ev, err := evict.New("paper", budget, "")
	if err != nil {
		t.Fatal(err)
	}
	sink, err := proxy.NewFileSink(dir)
	if err != nil {
		t.Fatal(err)
	}
	tools := []any{}
	for _, name := range []string{"read", "bash", "edit"} {
		tools = append(tools, map[string]any{"type": "function", "function": map[string]any{"name": name,
			"parameters": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}, "command": map[string]any{"type": "string"}}}}})
	}
	messages := []map[string]any{{"role": "system", "content": "You are a coding agent."}, {"role": "user", "content": "Make the tests pass."}}
	steps := agentSteps()
	var recs []*proxy.Record
	start := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for k := 0; k <= len(steps); k++ {
		body, _ := json.Marshal(map[string]any{"model": "m", "messages": messages, "tools": tools})
		reply := map[string]any{"role": "assistant", "content": "Done."}
		if k < len(steps) {
			reply = steps[k].reply(k)
		}
		res, _ := json.Marshal(map[string]any{"id": fmt.Sprint("r", k), "object": "chat.completion", "model": "m",
			"choices": []any{map[string]any{"index": 0, "message": reply, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": len(body) / 4, "completion_tokens": 20}})
		rec := &proxy.Record{Version: proxy.RecordVersion, Seq: k + 1, Conversation: "conv-1", API: proxy.APIChat, Method: "POST", Path: "/v1/chat/completions",
			Status: 200, Started: start.Add(time.Duration(k) * time.Minute),
			Request: proxy.Body{Text: string(body), Bytes: int64(len(body))}, Response: proxy.Body{Text: string(res), Bytes: int64(len(res))}}
		if fwd, note := ev.Rewrite(proxy.APIChat, "conv-1", body); fwd != nil {
			rec.Forwarded, rec.Rewrite = &proxy.Body{Text: string(fwd), Bytes: int64(len(fwd))}, note
		}
		if err := ev.Record(rec); err != nil {
			t.Fatal(err)
		}
		if err := sink.Record(rec); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
		messages = append(messages, reply)
		if k < len(steps) {
			messages = append(messages, map[string]any{"role": "tool", "tool_call_id": fmt.Sprintf("call_%d", k), "content": steps[k].output})
		}
	}
	return recs
}

// step is one turn of the recorded agent: what it says, and the tool it
// calls with its argument and the output the call gets.
type step struct{ say, tool, arg, output string }

// agentSteps are the agent's turns: for each file, read it, run the
// tests, edit it.
func agentSteps() []step {
	var steps []step
	for i, f := range files {
		steps = append(steps,
			step{fmt.Sprintf("Looking at part %c next.", 'A'+i), "read", f.path, f.text},
			step{"", "bash", "go test ./...", strings.Repeat("--- FAIL: TestThing (0.00s)\n", 40)},
			step{"Fixing it.", "edit", f.path, "edited"})
	}
	return steps
}

// reply is the assistant message of step s, the k-th of the conversation.
func (s step) reply(k int) map[string]any {
	key := "path"
	if s.tool == "bash" {
		key = "command"
	}
	args, _ := json.Marshal(map[string]string{key: s.arg})
	return map[string]any{"role": "assistant", "content": s.say, "tool_calls": []any{map[string]any{"id": fmt.Sprintf("call_%d", k), "type": "function",
		"function": map[string]any{"name": s.tool, "arguments": string(args)}}}}
}
