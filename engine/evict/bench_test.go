package evict

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/proxy"
)

// syntheticChat is a Chat Completions conversation of tool calls, each
// answered by an output of about outTokens tokens, as the proxy would
// record it: for each request, the body the agent sent and the response.
type syntheticChat struct {
	messages []map[string]any
	rng      *rand.Rand
	n        int
}

func newSyntheticChat() *syntheticChat {
	return &syntheticChat{rng: rand.New(rand.NewPCG(1, 2)), messages: []map[string]any{
		{"role": "system", "content": strings.Repeat("You are a coding agent. Use the tools to read, search and edit files. ", 40)},
		{"role": "user", "content": "Find why the pagination test fails and fix it."},
	}}
}

var benchWords = strings.Fields("func return if err nil the page cursor offset limit items next token value string int struct map range for := test want got fmt Errorf import package store query rows scan")

// output is a tool output of about n tokens: lines of code-like words.
func (c *syntheticChat) output(n int) string {
	var b strings.Builder
	for b.Len() < 4*n {
		for w := 0; w < 10; w++ {
			b.WriteString(benchWords[c.rng.IntN(len(benchWords))])
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d\n", c.rng.IntN(1000))
	}
	return b.String()
}

// next returns the body of the next request and its response, and
// appends the response's tool call and an output of outTokens to the
// conversation.
func (c *syntheticChat) next(outTokens int) (body, response []byte) {
	tools := []any{}
	for _, name := range []string{"read", "bash", "edit"} {
		tools = append(tools, map[string]any{"type": "function", "function": map[string]any{"name": name, "parameters": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}}})
	}
	body, _ = json.Marshal(map[string]any{"model": "m", "messages": c.messages, "tools": tools})
	c.n++
	name := []string{"read", "bash", "read", "edit"}[c.n%4]
	id := fmt.Sprintf("call_%d", c.n)
	call := map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": id, "type": "function",
		"function": map[string]any{"name": name, "arguments": fmt.Sprintf(`{"path":"pkg/file%d.go"}`, c.n)}}}}
	response, _ = json.Marshal(map[string]any{"id": "r" + id, "object": "chat.completion", "model": "m",
		"choices": []any{map[string]any{"index": 0, "message": call, "finish_reason": "tool_calls"}},
		"usage":   map[string]any{"prompt_tokens": len(body) / 4, "completion_tokens": 20}})
	c.messages = append(c.messages, call, map[string]any{"role": "tool", "tool_call_id": id, "content": c.output(outTokens)})
	return body, response
}

// BenchmarkRewriteLatency plays a conversation whose history grows to
// about a million tokens (200 tool outputs of 5,000 tokens) through an
// evictor at τ 100,000, and reports the rewrite's latency per request:
// p50, p95 and the last request's, which carries the whole history, and
// the heap the evictor holds at the end (its decoded conversation). The
// issue's target is a p95 under 20 ms; see docs/live-cwl.md for where the
// time goes.
func BenchmarkRewriteLatency(b *testing.B) {
	const requests, outTokens, budget = 200, 5000, 100_000
	for b.Loop() {
		e, err := New("paper", budget, "")
		if err != nil {
			b.Fatal(err)
		}
		chat := newSyntheticChat()
		var lat []time.Duration
		start := time.Now()
		for i := 0; i < requests; i++ {
			body, res := chat.next(outTokens)
			t0 := time.Now()
			_, note := e.Rewrite(proxy.APIChat, "c", body)
			lat = append(lat, time.Since(t0))
			if strings.HasPrefix(note, "not rewritten") {
				b.Fatalf("request %d: %s", i+1, note)
			}
			rec := &proxy.Record{Version: proxy.RecordVersion, Seq: i + 1, Conversation: "c", API: proxy.APIChat, Method: "POST", Status: 200,
				Started: start.Add(time.Duration(i) * time.Second),
				Request: proxy.Body{Text: string(body), Bytes: int64(len(body))}, Response: proxy.Body{Text: string(res), Bytes: int64(len(res))}}
			if err := e.Record(rec); err != nil {
				b.Fatal(err)
			}
			if i%20 == 0 {
				b.Logf("request %d: %d KB, %v", i+1, len(body)>>10, lat[i])
			}
		}
		chat = nil
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		runtime.KeepAlive(e)
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "held-MB")
		last := lat[len(lat)-1]
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
		b.ReportMetric(float64(last.Microseconds())/1000, "last-ms")
	}
}
