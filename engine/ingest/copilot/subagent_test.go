package copilot

import (
	"strings"
	"testing"

	"ctxscope/engine/session"
)

// TestSubagentEventsAreTheirOwnThread reads a Copilot CLI 1.0.10x log in
// which the task tool ran a subagent: the events that carry its agentId
// are a subagent thread of the main one, with their own chain and usage,
// and the main thread goes on where it left off.
func TestSubagentEventsAreTheirOwnThread(t *testing.T) {
	log := strings.Join([]string{
		`{"type":"session.start","data":{"sessionId":"s","copilotVersion":"1.0.102","selectedModel":"gpt-4.1"},"id":"1","timestamp":"2026-11-27T13:14:51Z"}`,
		`{"type":"user.message","data":{"content":"go"},"id":"2","timestamp":"2026-11-27T13:14:52Z"}`,
		`{"type":"assistant.message","data":{"messageId":"m1","content":"delegating","apiCallId":"c1","toolRequests":[{"toolCallId":"t1","name":"task","arguments":{"prompt":"check"}}]},"id":"3","timestamp":"2026-11-27T13:14:53Z"}`,
		`{"type":"subagent.started","data":{"toolCallId":"t1","agentName":"general-purpose","agentDisplayName":"checker","agentDescription":"a subtask"},"agentId":"a1","id":"4","timestamp":"2026-11-27T13:14:53Z"}`,
		`{"type":"user.message","data":{"content":"check","source":"agent-x"},"agentId":"a1","id":"5","timestamp":"2026-11-27T13:14:53Z"}`,
		`{"type":"session.usage_record","data":{"usage":{"inputTokens":500,"outputTokens":5,"cacheReadTokens":100,"apiCallId":"c2"}},"agentId":"a1","id":"6","timestamp":"2026-11-27T13:14:54Z"}`,
		`{"type":"assistant.message","data":{"messageId":"m2","content":"ok","apiCallId":"c2"},"agentId":"a1","id":"7","timestamp":"2026-11-27T13:14:54Z"}`,
		`{"type":"subagent.completed","data":{"toolCallId":"t1"},"agentId":"a1","id":"8","timestamp":"2026-11-27T13:14:54Z"}`,
		`{"type":"tool.execution_complete","data":{"toolCallId":"t1","success":true,"result":{"content":"it passes"}},"id":"9","timestamp":"2026-11-27T13:14:55Z"}`,
		`{"type":"assistant.message","data":{"messageId":"m3","content":"done","apiCallId":"c3"},"id":"10","timestamp":"2026-11-27T13:14:56Z"}`,
	}, "\n") + "\n"
	s, err := Importer{}.Import(strings.NewReader(log), "events.jsonl")
	if err != nil || len(s.Diagnostics) > 0 {
		t.Fatalf("%v %v", err, s.Diagnostics)
	}
	if len(s.Threads) != 2 {
		t.Fatalf("%d threads, want the main one and the subagent's", len(s.Threads))
	}
	main, sub := s.Threads[0], s.Threads[1]
	if sub.Kind != session.ThreadSubagent || sub.ParentID != main.ID || sub.ID != "a1" || sub.Title != "checker: a subtask" {
		t.Errorf("subagent thread %s %s parent %s title %q", sub.Kind, sub.ID, sub.ParentID, sub.Title)
	}
	roles := func(th *session.Thread) string {
		var out []string
		for _, e := range th.Entries {
			if e.Message != nil {
				out = append(out, string(e.Message.Role))
			}
		}
		return strings.Join(out, " ")
	}
	if got := roles(main); got != "user assistant tool assistant" {
		t.Errorf("main thread %q", got)
	}
	if got := roles(sub); got != "user assistant" {
		t.Errorf("subagent thread %q", got)
	}
	if n := len(session.BuildRequests(main)); n != 2 {
		t.Errorf("main thread: %d requests, want 2", n)
	}
	reqs := session.BuildRequests(sub)
	if len(reqs) != 1 || reqs[0].Entry.Message.Usage == nil || reqs[0].Entry.Message.Usage.Input != 400 || len(reqs[0].Input()) != 1 {
		t.Errorf("subagent requests %d, the first's usage and input: %+v", len(reqs), reqs)
	}
}
