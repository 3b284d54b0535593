package app

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctxscope/engine/modeltest"
	"ctxscope/engine/session"
)

// chatClient is a minimal agent speaking Chat Completions through a base
// URL: it sends the conversation, runs no tool, and answers each call
// with a fixed result.
type chatClient struct {
	base     string
	messages []map[string]any
}

// turn sends the conversation and appends the answer, and the results of
// its calls; it reports whether the model called a tool.
func (c *chatClient) turn(t *testing.T) bool {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"model": "gpt-4.1", "messages": c.messages,
		"tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "read", "parameters": map[string]any{
			"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}}}}})
	req, _ := http.NewRequest("POST", c.base+"/v1/chat/completions", strings.NewReader(string(body)))
	req.Header.Set("Authorization", "Bearer sk-never-stored")
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Choices []struct {
			Message map[string]any `json:"message"`
		} `json:"choices"`
	}
	data, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(data, &out); err != nil || len(out.Choices) == 0 {
		t.Fatalf("answer %s: %v", data, err)
	}
	msg := out.Choices[0].Message
	c.messages = append(c.messages, msg)
	calls, _ := msg["tool_calls"].([]any)
	for _, call := range calls {
		id, _ := call.(map[string]any)["id"].(string)
		c.messages = append(c.messages, map[string]any{"role": "tool", "tool_call_id": id, "content": "the text of notes.md"})
	}
	return len(calls) > 0
}

// readingTask starts the model server on a task of marker that reads
// notes.md reads times, and an app on a new workspace whose events rec
// records. The server is closed when the test ends.
func readingTask(t *testing.T, marker string, reads int) (*modeltest.Server, *App, *eventRecorder) {
	t.Helper()
	steps := []modeltest.Step{}
	for i := range reads {
		st := modeltest.Step{Calls: []modeltest.Action{{Kind: modeltest.Read, Path: "notes.md"}}}
		if i == 0 {
			st.Say = "Reading."
		}
		steps = append(steps, st)
	}
	srv := modeltest.Start(modeltest.Script{Workdir: "/w", Tasks: []modeltest.Task{{Marker: marker, Steps: steps, Final: "Done."}}})
	t.Cleanup(srv.Close)
	a := newApp(t, Options{Workspace: t.TempDir(), Home: t.TempDir()})
	rec := &eventRecorder{events: make(chan recorded, 1024)}
	a.SetPlatform(rec)
	return srv, a, rec
}

// TestProxyRecordsIntoTheWorkspaceAsTheAgentRuns turns the recording
// proxy on, runs a conversation through it to the model server, and
// checks that the conversation is a session of the workspace that grows
// with each request while it runs, that the proxy's state says how to
// reach it, and that turning it off closes its port.
func TestProxyRecordsIntoTheWorkspaceAsTheAgentRuns(t *testing.T) {
	srv, a, rec := readingTask(t, "PROXY-TASK", 2)

	st, err := a.live.SetProxy(context.Background(), ProxySettings{On: true, Addr: "127.0.0.1:0", Upstreams: []string{srv.URL}})
	if err != nil || !st.On || !strings.HasPrefix(st.BaseURL, "http://127.0.0.1:") || len(st.Agents) == 0 || st.Upstreams["openai"] != srv.URL {
		t.Fatalf("proxy on: %+v %v", st, err)
	}
	if _, err := a.live.SetProxy(context.Background(), ProxySettings{On: true, Addr: "0.0.0.0:0"}); err == nil {
		t.Error("a proxy beyond loopback was accepted")
	}
	c := &chatClient{base: st.BaseURL, messages: []map[string]any{{"role": "system", "content": "be brief"}, {"role": "user", "content": "PROXY-TASK: read the notes"}}}
	c.turn(t)
	// The conversation is a session as soon as its first request ended.
	key := rec.waitFor(t, EventDiscovered, func(any) bool { return true }).(Discovered).Keys[0]
	for c.turn(t) {
		rec.waitFor(t, EventAppended, func(d any) bool { return d.(Appended).Key == key })
	}
	rec.waitFor(t, EventAppended, func(d any) bool { return d.(Appended).Key == key && d.(Appended).Requests == 3 })
	infos, err := a.sessions.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var info *SessionInfo
	for i := range infos {
		if infos[i].Key == key {
			info = &infos[i]
		}
	}
	if info == nil || info.Format != session.FormatProxy || info.Requests != 3 {
		t.Fatalf("session %+v", info)
	}

	// The same conversation as the agent logged it (OpenAI chat messages,
	// without the tool schemas), joined to the wire: each request lacks
	// exactly the one tool schema.
	logPath := filepath.Join(t.TempDir(), "chat.json")
	logged, _ := json.Marshal(c.messages)
	if err := os.WriteFile(logPath, logged, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := a.sessions.Import(context.Background(), []string{logPath}); err != nil {
		t.Fatal(err)
	}
	infos, _ = a.sessions.List(context.Background())
	logKey := ""
	for _, i := range infos {
		if i.Source == logPath {
			logKey = i.Key
		}
	}
	for k := range 3 {
		v, err := a.debugger.Wire(context.Background(), logKey, 0, k, "")
		if err != nil || !v.Matched || v.Wire != key || v.Requests != 3 || v.Diff.WireRequest != k || len(v.Diff.Lacks) != 1 ||
			v.Diff.Lacks[0].Section != session.SectionToolSchema || v.Diff.Lacks[0].Tool != "read" || len(v.Diff.Extra) != 0 {
			t.Errorf("request %d beside the wire: %+v %v", k, v, err)
		}
	}

	off, err := a.live.SetProxy(context.Background(), ProxySettings{On: false})
	if err != nil || off.On {
		t.Fatalf("off: %+v %v", off, err)
	}
	if _, err := http.Post(st.BaseURL+"/v1/chat/completions", "application/json", strings.NewReader("{}")); err == nil {
		t.Error("the proxy still answers once off")
	}
	// On again: the same address and secret path, so that the agents'
	// settings keep working.
	again, err := a.live.SetProxy(context.Background(), ProxySettings{On: true})
	if err != nil || again.BaseURL != st.BaseURL {
		t.Errorf("on again: %s, want %s (%v)", again.BaseURL, st.BaseURL, err)
	}
	// Live eviction: a policy of CWL with a budget, or none.
	if _, err := a.live.SetProxy(context.Background(), ProxySettings{On: true, Policy: "truncate", Budget: 1000}); err == nil {
		t.Error("a baseline policy was accepted for live eviction")
	}
	if ev, err := a.live.SetProxy(context.Background(), ProxySettings{On: true, Policy: "paper", Budget: 20000}); err != nil || ev.Policy != "paper" || ev.Budget != 20000 || !ev.On {
		t.Errorf("eviction on: %+v %v", ev, err)
	}
	if ev, err := a.live.SetProxy(context.Background(), ProxySettings{On: true, Policy: "off"}); err != nil || ev.Policy != "" {
		t.Errorf("eviction off: %+v %v", ev, err)
	}
}

// TestLiveEvictionKillSwitch runs a conversation through the proxy with
// live eviction on, turns eviction off for its session and on again, and
// checks each request's record: while off, the request goes as sent with
// a note saying why; the choice is in the proxy's state and kept across a
// restart of the proxy; a session the proxy did not record is refused.
func TestLiveEvictionKillSwitch(t *testing.T) {
	srv, a, rec := readingTask(t, "KILL-TASK", 3)
	st, err := a.live.SetProxy(context.Background(), ProxySettings{On: true, Addr: "127.0.0.1:0", Upstreams: []string{srv.URL}, Policy: "paper", Budget: 20})
	if err != nil {
		t.Fatal(err)
	}
	c := &chatClient{base: st.BaseURL, messages: []map[string]any{{"role": "system", "content": "be brief"}, {"role": "user", "content": "KILL-TASK: read the notes"}}}
	c.turn(t)
	key := rec.waitFor(t, EventDiscovered, func(any) bool { return true }).(Discovered).Keys[0]
	info, err := a.ws.Store.Session(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	lastNote := func(requests int) string {
		t.Helper()
		rec.waitFor(t, EventAppended, func(d any) bool { return d.(Appended).Key == key && d.(Appended).Requests == requests })
		data, err := os.ReadFile(filepath.Join(st.Dir, info.ID+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		var r struct {
			Rewrite string `json:"rewrite"`
		}
		json.Unmarshal([]byte(lines[len(lines)-1]), &r)
		return r.Rewrite
	}
	const off = "not rewritten: eviction is turned off for this conversation"

	paused, err := a.live.SetLiveEviction(context.Background(), key, false)
	if err != nil || len(paused.Paused) != 1 || paused.Paused[0] != info.ID {
		t.Fatalf("off: %+v %v", paused, err)
	}
	c.turn(t)
	if note := lastNote(2); note != off {
		t.Errorf("while off, the record says %q", note)
	}
	// Kept across a restart of the proxy.
	if _, err := a.live.SetProxy(context.Background(), ProxySettings{On: false}); err != nil {
		t.Fatal(err)
	}
	if again, err := a.live.SetProxy(context.Background(), ProxySettings{On: true}); err != nil || len(again.Paused) != 1 {
		t.Fatalf("restarted: %+v %v", again, err)
	}
	c.turn(t)
	if note := lastNote(3); note != off {
		t.Errorf("after a restart, the record says %q", note)
	}
	if on, err := a.live.SetLiveEviction(context.Background(), key, true); err != nil || len(on.Paused) != 0 {
		t.Fatalf("on: %+v %v", on, err)
	}
	c.turn(t)
	if note := lastNote(4); note == off {
		t.Errorf("on again, the record still says %q", note)
	}

	demo, err := a.sessions.OpenDemo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.live.SetLiveEviction(context.Background(), demo.Key, false); err == nil {
		t.Error("a session the proxy did not record was accepted")
	}
}
