package mcprecall

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"ctxscope/engine/debug"
	"ctxscope/engine/evict"
	"ctxscope/engine/proxy"
	"ctxscope/engine/recall"
	"ctxscope/engine/tokens"
	"ctxscope/search/lexical"
)

// file is a file the conversation reads, with words no other file has.
type file struct{ path, text string }

var files = []file{
	{"parser.go", strings.Repeat("func parseToken(lexer *Lexer) Token { return lexer.scanIdentifier() }\n", 60)},
	{"cache.go", strings.Repeat("func (c *Cache) evictOldest() { delete(c.entries, c.lru.Back()) }\n", 60)},
	{"router.go", strings.Repeat("func (r *Router) matchRoute(path string) Handler { return r.trie.lookup(path) }\n", 60)},
	{"config.go", strings.Repeat("func loadConfig(path string) (*Config, error) { return parseYAML(path) }\n", 60)},
}

// recordConversation plays a Chat Completions conversation through an
// evictor at budget, as the proxy would, writing its records into dir:
// rounds of reading two files, running the tests and editing, each round
// announced so that episodes can be inferred. It returns the records.
func recordConversation(t *testing.T, dir string, budget int) []*proxy.Record {
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
	type step struct{ say, tool, arg, output string }
	var steps []step
	for i, f := range files {
		steps = append(steps,
			step{fmt.Sprintf("Looking at part %c next.", 'A'+i), "read", f.path, f.text},
			step{"", "bash", "go test ./...", strings.Repeat("--- FAIL: TestThing (0.00s)\n", 40)},
			step{"Fixing it.", "edit", f.path, "edited"})
	}
	var recs []*proxy.Record
	start := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for k := 0; k <= len(steps); k++ {
		body, _ := json.Marshal(map[string]any{"model": "m", "messages": messages, "tools": tools})
		var reply map[string]any
		if k == len(steps) {
			reply = map[string]any{"role": "assistant", "content": "Done."}
		} else {
			s := steps[k]
			key := "path"
			if s.tool == "bash" {
				key = "command"
			}
			args, _ := json.Marshal(map[string]string{key: s.arg})
			reply = map[string]any{"role": "assistant", "content": s.say, "tool_calls": []any{map[string]any{"id": fmt.Sprintf("call_%d", k), "type": "function",
				"function": map[string]any{"name": s.tool, "arguments": string(args)}}}}
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

func newRecords(dir string, budget int) *Records {
	return &Records{Dir: dir, Params: debug.Params{Policy: "paper", Budget: budget, Episodes: "inferred"},
		Options: recall.Options{Counter: tokens.Estimator{}, Index: lexical.Build}}
}

// callText calls a tool and returns its text, failing on a tool error.
func callText(t *testing.T, cs *mcp.ClientSession, name string, args any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.IsError {
		t.Fatalf("%s: tool error: %s", name, b.String())
	}
	return b.String()
}

// TestRecallBringsBackWhatTheProxyEvicted records a conversation whose
// early file reads the evictor replaced by stubs in the last forwarded
// request, then asks the MCP server: context_status lists the evicted
// reads, and recall with a file's name brings back that file's content,
// which the last forwarded request did not hold.
func TestRecallBringsBackWhatTheProxyEvicted(t *testing.T) {
	const budget = 3000
	dir := t.TempDir()
	recs := recordConversation(t, dir, budget)
	last := recs[len(recs)-1]
	if last.Forwarded == nil {
		t.Fatalf("the last request was not rewritten (%s)", last.Rewrite)
	}
	first := files[0]
	if strings.Contains(last.Forwarded.Text, "parseToken") || !strings.Contains(last.Request.Text, "parseToken") {
		t.Fatal("the last forwarded request still holds parser.go: nothing to recall")
	}

	s := NewServer(newRecords(dir, budget), "test")
	ct, st := mcp.NewInMemoryTransports()
	if _, err := s.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	status := callText(t, cs, "context_status", map[string]any{})
	if !strings.Contains(status, "tool output (read)") || !strings.Contains(status, "parseToken") {
		t.Errorf("context_status does not list the evicted read of %s:\n%s", first.path, status)
	}
	got := callText(t, cs, "recall", map[string]any{"query": "what does parser.go do", "max_tokens": 800})
	if !strings.Contains(got, "func parseToken(lexer *Lexer) Token") {
		t.Fatalf("recall did not bring back parser.go:\n%s", got)
	}
	if strings.Contains(got, "evictOldest") && !strings.Contains(got, "parseToken") {
		t.Error("recall ranked another file first")
	}
	none := callText(t, cs, "recall", map[string]any{"query": "kubernetes helm chart"})
	if !strings.HasPrefix(none, "Nothing evicted") {
		t.Errorf("a query nothing matches brought back:\n%s", none)
	}
}

// TestHTTPEndpointIsLocalAndSecret serves the tools over streamable HTTP
// and checks that an MCP client at the URL works, while a request without
// the secret path, with an Origin (a web page) or naming another host is
// refused.
func TestHTTPEndpointIsLocalAndSecret(t *testing.T) {
	const budget = 3000
	dir := t.TempDir()
	recordConversation(t, dir, budget)
	h, err := ListenHTTP(NewServer(newRecords(dir, budget), "test"), "127.0.0.1:0", proxy.NewToken())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := ListenHTTP(NewServer(newRecords(dir, budget), "test"), "0.0.0.0:0", proxy.NewToken()); err == nil {
		t.Error("listening beyond loopback was allowed")
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: h.URL()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := callText(t, cs, "recall", map[string]any{"query": "parser.go"}); !strings.Contains(got, "parseToken") {
		t.Errorf("recall over HTTP:\n%s", got)
	}

	base := strings.TrimSuffix(h.URL(), "/"+strings.TrimPrefix(h.URL()[strings.LastIndex(h.URL(), "/mcp/"):], "/"))
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, tc := range []struct {
		name   string
		url    string
		header map[string]string
		host   string
		want   int
	}{
		{"no secret", base + "/mcp/", nil, "", http.StatusNotFound},
		{"a wrong secret", base + "/mcp/" + proxy.NewToken(), nil, "", http.StatusNotFound},
		{"a web page", h.URL(), map[string]string{"Origin": "http://evil.example"}, "", http.StatusForbidden},
		{"another host", h.URL(), nil, "evil.example", http.StatusMisdirectedRequest},
	} {
		req, _ := http.NewRequest("POST", tc.url, strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range tc.header {
			req.Header.Set(k, v)
		}
		if tc.host != "" {
			req.Host = tc.host
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, res.StatusCode, tc.want)
		}
	}
}
