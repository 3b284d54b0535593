package mcprecall

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"ctxscope/engine/debug"
	"ctxscope/engine/mcprecall/mcprecalltest"
	"ctxscope/engine/proxy"
	"ctxscope/engine/recall"
	"ctxscope/engine/tokens"
	"ctxscope/search/lexical"
)

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
	recs := mcprecalltest.RecordConversation(t, dir, budget)
	last := recs[len(recs)-1]
	if last.Forwarded == nil {
		t.Fatalf("the last request was not rewritten (%s)", last.Rewrite)
	}
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
		t.Errorf("context_status does not list the evicted read of parser.go:\n%s", status)
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
	mcprecalltest.RecordConversation(t, dir, budget)
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

	base, _, _ := strings.Cut(h.URL(), "/mcp/") // http://127.0.0.1:PORT
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
