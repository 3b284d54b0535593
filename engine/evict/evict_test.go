package evict

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"ctxscope/engine/debug"
	"ctxscope/engine/ingest/proxyrec"
	"ctxscope/engine/modeltest"
	"ctxscope/engine/proxy"
)

// records keeps the proxy's records in memory.
type records struct {
	mu   sync.Mutex
	list []*proxy.Record
}

func (r *records) Record(rec *proxy.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, rec)
	return nil
}

func (r *records) wait(t *testing.T, n int) []*proxy.Record {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		r.mu.Lock()
		got := append([]*proxy.Record(nil), r.list...)
		r.mu.Unlock()
		if len(got) >= n {
			return got
		}
	}
	t.Fatalf("fewer than %d records", n)
	return nil
}

// chatAgent plays an agent over Chat Completions: it sends the
// conversation, and answers each tool call with a long output.
type chatAgent struct {
	base     string
	messages []map[string]any
}

func (a *chatAgent) turn(t *testing.T) bool {
	t.Helper()
	tool := func(name string, params ...string) any {
		return map[string]any{"type": "function", "function": map[string]any{"name": name, "parameters": map[string]any{"type": "object", "properties": stringProps(params)}}}
	}
	body, _ := json.Marshal(map[string]any{"model": "m", "messages": a.messages,
		"tools": []any{tool("read", "path"), tool("bash", "command"), tool("edit", "path", "old_str", "new_str")}})
	res, err := http.Post(a.base+"/v1/chat/completions", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	var out struct {
		Choices []struct {
			Message map[string]any `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &out); err != nil || len(out.Choices) == 0 {
		t.Fatalf("answer %s: %v", data, err)
	}
	msg := out.Choices[0].Message
	a.messages = append(a.messages, msg)
	calls, _ := msg["tool_calls"].([]any)
	for n, c := range calls {
		id, _ := c.(map[string]any)["id"].(string)
		a.messages = append(a.messages, map[string]any{"role": "tool", "tool_call_id": id,
			"content": strings.Repeat("line of the file, number "+string(rune('a'+n))+"\n", 120)})
	}
	return len(calls) > 0
}

// anthropicAgent plays an agent over Anthropic Messages.
type anthropicAgent struct {
	base     string
	messages []map[string]any
}

func (a *anthropicAgent) turn(t *testing.T) bool {
	t.Helper()
	tool := func(name string, params ...string) any {
		return map[string]any{"name": name, "input_schema": map[string]any{"type": "object", "properties": stringProps(params)}}
	}
	body, _ := json.Marshal(map[string]any{"model": "claude", "max_tokens": 1000, "system": "be brief", "messages": a.messages,
		"tools": []any{tool("Read", "file_path"), tool("Bash", "command"), tool("Edit", "file_path", "old_string", "new_string")}})
	res, err := http.Post(a.base+"/v1/messages", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	var out struct {
		Content []map[string]any `json:"content"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("answer %s: %v", data, err)
	}
	a.messages = append(a.messages, map[string]any{"role": "assistant", "content": out.Content})
	var results []any
	for n, b := range out.Content {
		if b["type"] == "tool_use" {
			results = append(results, map[string]any{"type": "tool_result", "tool_use_id": b["id"],
				"content": strings.Repeat("line of the file, number "+string(rune('a'+n))+"\n", 120)})
		}
	}
	if len(results) > 0 {
		a.messages = append(a.messages, map[string]any{"role": "user", "content": results})
	}
	return len(results) > 0
}

// responsesAgent plays an agent over the Responses API.
type responsesAgent struct {
	base  string
	input []any
}

func (a *responsesAgent) turn(t *testing.T) bool {
	t.Helper()
	tool := func(name string, params ...string) any {
		return map[string]any{"type": "function", "name": name, "parameters": map[string]any{"type": "object", "properties": stringProps(params)}}
	}
	body, _ := json.Marshal(map[string]any{"model": "gpt", "instructions": "be brief", "input": a.input,
		"tools": []any{tool("read_file", "path"), tool("shell", "cmd"), tool("edit", "path", "old_str", "new_str")}})
	res, err := http.Post(a.base+"/v1/responses", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	var out struct {
		Output []map[string]any `json:"output"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("answer %s: %v", data, err)
	}
	calls := 0
	for _, it := range out.Output {
		a.input = append(a.input, it)
	}
	for n, it := range out.Output {
		if it["type"] == "function_call" {
			calls++
			a.input = append(a.input, map[string]any{"type": "function_call_output", "call_id": it["call_id"],
				"output": strings.Repeat("line of the file, number "+string(rune('a'+n))+"\n", 120)})
		}
	}
	return calls > 0
}

// geminiAgent plays an agent over Gemini generateContent.
type geminiAgent struct {
	base     string
	contents []any
}

func (a *geminiAgent) turn(t *testing.T) bool {
	t.Helper()
	decl := func(name string, params ...string) any {
		return map[string]any{"name": name, "parameters": map[string]any{"type": "object", "properties": stringProps(params)}}
	}
	body, _ := json.Marshal(map[string]any{"systemInstruction": map[string]any{"parts": []any{map[string]any{"text": "be brief"}}}, "contents": a.contents,
		"tools": []any{map[string]any{"functionDeclarations": []any{decl("read_file", "absolute_path"), decl("run_shell_command", "command"), decl("replace", "file_path", "old_string", "new_string")}}}})
	res, err := http.Post(a.base+"/v1beta/models/gemini-2.5-pro:generateContent", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	var out struct {
		Candidates []struct {
			Content map[string]any `json:"content"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal(data, &out); err != nil || len(out.Candidates) == 0 {
		t.Fatalf("answer %s: %v", data, err)
	}
	content := out.Candidates[0].Content
	a.contents = append(a.contents, content)
	parts, _ := content["parts"].([]any)
	var responses []any
	for n, p := range parts {
		fc, ok := p.(map[string]any)["functionCall"].(map[string]any)
		if !ok {
			continue
		}
		responses = append(responses, map[string]any{"functionResponse": map[string]any{"id": fc["id"], "name": fc["name"],
			"response": map[string]any{"output": strings.Repeat("line of the file, number "+string(rune('a'+n))+"\n", 120)}}})
	}
	if len(responses) > 0 {
		a.contents = append(a.contents, map[string]any{"role": "user", "parts": responses})
	}
	return len(responses) > 0
}

// stringProps is a JSON schema's properties: a string parameter of each
// name.
func stringProps(names []string) map[string]any {
	props := map[string]any{}
	for _, n := range names {
		props[n] = map[string]any{"type": "string"}
	}
	return props
}

// agent plays an agent of one API: turn sends the conversation and
// answers the model's calls, reporting whether it made any.
type agent interface{ turn(t *testing.T) bool }

// TestLiveEvictionThroughTheProxy runs a conversation of 16 tool calls of
// each API through the proxy with eviction at a τ well under the
// conversation's peak, and checks that requests over τ are forwarded
// rewritten, smaller, at or under τ or marked unreachable, with every
// call still paired with its result; that the first request goes as sent;
// that the server receives the forwarded bodies; and that a replay of the
// recorded conversation (as the agent sent it) makes the same decisions:
// rewriting each recorded request with the replay's decisions gives the
// forwarded body byte for byte.
func TestLiveEvictionThroughTheProxy(t *testing.T) {
	for _, tc := range []struct {
		api   proxy.API
		agent func(base string) agent
	}{
		{proxy.APIChat, func(base string) agent {
			return &chatAgent{base: base, messages: []map[string]any{{"role": "system", "content": "be brief"}, {"role": "user", "content": "EVICT-TASK: read a.txt again and again"}}}
		}},
		{proxy.APIAnthropic, func(base string) agent {
			return &anthropicAgent{base: base, messages: []map[string]any{{"role": "user", "content": "EVICT-TASK: read a.txt again and again"}}}
		}},
		{proxy.APIGemini, func(base string) agent {
			return &geminiAgent{base: base, contents: []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "EVICT-TASK: read a.txt again and again"}}}}}
		}},
		{proxy.APIResponses, func(base string) agent {
			return &responsesAgent{base: base, input: []any{map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": "EVICT-TASK: read a.txt again and again"}}}}}
		}},
	} {
		t.Run(string(tc.api), func(t *testing.T) { liveEviction(t, tc.agent) })
	}
}

// playThrough plays the scripted conversation (16 tool calls in rounds
// of exploring and changing) with a new agent through the proxy, evicting
// at τ budget with hysteresis step when evicting is set, and returns the
// proxy's records and the requests the model server received.
func playThrough(t *testing.T, newAgent func(string) agent, budget, step int, evicting bool) ([]*proxy.Record, []modeltest.Request) {
	t.Helper()
	srv := modeltest.Start(modeltest.Script{Workdir: "/w", Tasks: []modeltest.Task{{Marker: "EVICT-TASK", Steps: modeltest.Rounds(4), Final: "Done."}}})
	defer srv.Close()
	kept := &records{}
	opts := proxy.Options{Token: "evict-test-token-0000", Sink: kept}
	opts.Upstreams, _ = proxy.ParseUpstreams([]string{srv.URL})
	if evicting {
		ev, err := New("paper", budget, "")
		if err != nil {
			t.Fatal(err)
		}
		if err := ev.SetStep(step); err != nil {
			t.Fatal(err)
		}
		opts.Sink, opts.Rewrite = proxy.Sinks{ev, kept}, ev.Rewrite
	}
	p, err := proxy.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(p)
	defer hs.Close()
	agent := newAgent(hs.URL + p.Prefix())
	n := 0
	for more := true; more; n++ {
		// The evictor decides on a request from the records before it:
		// each exchange is recorded before the next is sent.
		if n > 0 {
			kept.wait(t, n)
		}
		more = agent.turn(t)
	}
	return kept.wait(t, n), srv.Requests()
}

func liveEviction(t *testing.T, newAgent func(string) agent) {
	const budget = 6000
	recs, got := playThrough(t, newAgent, budget, 0, true)
	if len(recs) != 17 {
		t.Fatalf("%d records, want 17", len(recs))
	}
	rewritten := 0
	for k, r := range recs {
		if k == 0 && r.Forwarded != nil {
			t.Error("the first request was rewritten")
		}
		if r.Forwarded == nil {
			continue
		}
		rewritten++
		if r.Forwarded.Bytes >= r.Request.Bytes || !strings.Contains(r.Forwarded.Text, "[evicted by ctxscope at L") {
			t.Errorf("request %d: forwarded %d bytes of %d sent", k, r.Forwarded.Bytes, r.Request.Bytes)
		}
		// At or under τ after eviction, or marked unreachable with why.
		var before, after int
		if _, err := fmt.Sscanf(r.Rewrite[strings.Index(r.Rewrite, ":")+2:], "%d tokens before, %d after", &before, &after); err != nil ||
			(after > budget && !strings.Contains(r.Rewrite, "unreachable")) || after >= before {
			t.Errorf("request %d: note %q", k, r.Rewrite)
		}
	}
	if rewritten < 5 {
		t.Errorf("%d of %d requests rewritten at τ %d", rewritten, len(recs), budget)
	}
	// The server received the forwarded bodies, each valid for its API:
	// every call with its result.
	for k, r := range got {
		if bad := r.Unpaired(); len(bad) > 0 {
			t.Errorf("request %d the server received: %v", k, bad)
		}
	}
	for k, r := range recs {
		want := r.Request.Text
		if r.Forwarded != nil {
			want = r.Forwarded.Text
		}
		if string(got[k].Body) != want {
			t.Errorf("request %d: the server received another body than the one recorded as forwarded", k)
		}
	}
	// A replay of the recorded conversation makes the same decisions.
	replay, _ := New("paper", budget, "")
	for k, r := range recs {
		fwd, _ := replay.Rewrite(r.API, r.Conversation, []byte(r.Request.Text))
		switch {
		case (fwd == nil) != (r.Forwarded == nil):
			t.Errorf("request %d: the replay rewrites %v, the live proxy %v", k, fwd != nil, r.Forwarded != nil)
		case fwd != nil && string(fwd) != r.Forwarded.Text:
			t.Errorf("request %d: the replay's rewrite differs from the forwarded body", k)
		}
		replay.Record(r)
	}
	// The debugger's timeline of the recorded conversation shows the live
	// decisions: a mark for each request forwarded rewritten.
	conv := proxyrec.NewConversation("c.jsonl")
	for _, r := range recs {
		conv.Add(r)
	}
	rep, err := debug.New(context.Background(), conv.Session(), debug.Params{Policy: "paper", Budget: budget, Episodes: "inferred"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := rep.Timeline(debug.Params{Policy: "paper", Budget: budget, Episodes: "inferred"})
	if err != nil {
		t.Fatal(err)
	}
	marked := 0
	for _, m := range tl.Live {
		if !m.Rewritten || recs[m.Request].Forwarded == nil || m.Note != recs[m.Request].Rewrite {
			t.Errorf("live mark %+v does not match record %d (%q)", m, m.Request, recs[m.Request].Rewrite)
		}
		marked++
	}
	if marked != rewritten {
		t.Errorf("%d live marks on the timeline, %d requests rewritten", marked, rewritten)
	}
	// And what the run cost as recorded, beside the replay of the
	// requests as sent: the recorded figures are the usage's.
	cache := Cache(recs)
	if lc := tl.LiveCost; lc == nil || lc.Recorded.Input != int64(cache.Prompt) || lc.Recorded.CacheRead != int64(cache.Cached) ||
		lc.Unmodified.Input <= lc.Recorded.Input {
		t.Errorf("live cost %+v, the usage's %+v", tl.LiveCost, cache)
	}
	t.Logf("%d of %d requests rewritten at τ %d", rewritten, len(recs), budget)
}

// TestWhatIsNeverRewritten checks the safety rules: a policy or budget
// that makes no sense is refused; the first request of a conversation, a
// request of an API not rewritten yet, and a body that cannot be read go
// as sent, with a note saying why where there is one.
func TestWhatIsNeverRewritten(t *testing.T) {
	if _, err := New("truncate", 1000, ""); err == nil {
		t.Error("a baseline policy was accepted for live eviction")
	}
	if _, err := New("paper", 0, ""); err == nil {
		t.Error("a zero budget was accepted")
	}
	ev, _ := New("paper", 10, "")
	first := []byte(`{"messages":[{"role":"user","content":"hi"}]}`)
	if out, note := ev.Rewrite(proxy.APIChat, proxy.ConversationKey(proxy.APIChat, first), first); out != nil || note != "" {
		t.Errorf("first request: %s %q", out, note)
	}
	if out, note := ev.Rewrite(proxy.API("other"), "c", []byte(`{}`)); out != nil || !strings.Contains(note, "not rewritten") {
		t.Errorf("an unknown API: %s %q", out, note)
	}
	ev.Record(&proxy.Record{Version: 1, Seq: 1, Conversation: "c", API: proxy.APIChat, Status: 200,
		Request: proxy.Body{Text: string(first)}, Response: proxy.Body{Text: `{"choices":[{"message":{"role":"assistant","content":"hello"}}]}`}})
	if out, note := ev.Rewrite(proxy.APIChat, "c", []byte(`{"messages":[`)); out != nil || !strings.Contains(note, "not JSON") {
		t.Errorf("a body that cannot be read was rewritten: %s %q", out, note)
	}
	// Over τ with nothing the policy may evict (a user turn): as sent, and
	// marked unreachable with why.
	second := []byte(`{"messages":[{"role":"user","content":"and now, what does the pager do when the cursor runs past the last page of results?"}]}`)
	if out, note := ev.Rewrite(proxy.APIChat, "c", second); out != nil || !strings.HasPrefix(note, "as sent at τ 10: ") || !strings.Contains(note, "unreachable: ") {
		t.Errorf("a request over τ with nothing to evict: %s %q", out, note)
	}
}

// TestHysteresisKeepsTheCachedPrefix plays the Chat Completions
// conversation three times in one run, through the model server (which
// reads from its "cache" the prefix a request shares with the previous
// one): forwarded as sent, evicting at τ 6,000 on every request, and
// evicting with a hysteresis of 2,000 tokens. The hysteresis must break
// the cached prefix at no more requests than evicting every request, cost
// less (input tokens, a cached one at a tenth), keep every forwarded
// request at or under τ (or say why not), and be made again by a replay
// of its records. What each costs against the conversation as sent is
// logged: docs/live-cwl.md reports it.
func TestHysteresisKeepsTheCachedPrefix(t *testing.T) {
	const budget, step = 6000, 2000
	newAgent := func(base string) agent {
		return &chatAgent{base: base, messages: []map[string]any{{"role": "system", "content": "be brief"}, {"role": "user", "content": "EVICT-TASK: read a.txt again and again"}}}
	}
	off, _ := playThrough(t, newAgent, budget, 0, false)
	every, _ := playThrough(t, newAgent, budget, 0, true)
	held, _ := playThrough(t, newAgent, budget, step, true)
	rOff, rEvery, rHeld := Cache(off), Cache(every), Cache(held)
	for _, x := range []struct {
		name string
		r    CacheReport
	}{{"as sent", rOff}, {"evicting every request", rEvery}, {"hysteresis 2000", rHeld}} {
		t.Logf("%-24s %2d requests, %2d rewritten: prompt %6d, cached %6d, %2d breaks losing %5d cached tokens, cost %.0f uncached-token equivalents",
			x.name, x.r.Requests, x.r.Rewritten, x.r.Prompt, x.r.Cached, x.r.Breaks, x.r.Broken, x.r.Cost())
	}
	if rEvery.Rewritten == 0 || rHeld.Rewritten == 0 {
		t.Fatal("nothing was evicted")
	}
	if rHeld.Breaks > rEvery.Breaks || rHeld.Cost() >= rEvery.Cost() {
		t.Errorf("the hysteresis broke the prefix %d times at a cost of %.0f, evicting every request %d times at %.0f",
			rHeld.Breaks, rHeld.Cost(), rEvery.Breaks, rEvery.Cost())
	}
	replay, _ := New("paper", budget, "")
	replay.SetStep(step)
	for k, r := range held {
		if r.Forwarded != nil {
			var before, after int
			if _, err := fmt.Sscanf(r.Rewrite[strings.Index(r.Rewrite, ":")+2:], "%d tokens before, %d after", &before, &after); err != nil ||
				(after > budget && !strings.Contains(r.Rewrite, "unreachable")) {
				t.Errorf("request %d: note %q", k, r.Rewrite)
			}
		}
		fwd, _ := replay.Rewrite(r.API, r.Conversation, []byte(r.Request.Text))
		if (fwd == nil) != (r.Forwarded == nil) || fwd != nil && string(fwd) != r.Forwarded.Text {
			t.Errorf("request %d: the replay under the same hysteresis decides otherwise", k)
		}
		replay.Record(r)
	}
}
