package realagents

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/modeltest"
	"ctxscope/engine/session"
)

// TestClaudeCode runs Claude Code on the scripted task, with a subagent,
// against the model server, and checks ctxscope's reading of the log it
// wrote against what the server received and answered: the format and
// version, every LLM request of the main thread and the subagent's, every
// tool call with its arguments, every result as logged against what was
// sent, and each response's usage exactly.
func TestClaudeCode(t *testing.T) {
	agent := pinnedAgent(t, "claude-code")
	sb := newSandbox(t, project)
	srv := modeltest.Start(codingTask(sb.work, true))
	defer srv.Close()
	rec := startProxy(t, srv)
	bin := filepath.Join(agent.dir, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude")
	sb.run(t, 3*time.Minute, []string{"ANTHROPIC_BASE_URL=" + rec.base, "ANTHROPIC_API_KEY=test-key",
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1"},
		bin, "-p", prompt, "--dangerously-skip-permissions", "--model", "claude-sonnet-4-5", "--output-format", "stream-json", "--verbose")
	sb.checkFixed(t)

	s := readLog(t, filepath.Join(sb.home, ".claude", "projects", "*", "*.jsonl"), session.FormatClaudeCode, agent.version)
	main, sub := threadsOf(t, s)
	if !strings.HasPrefix(s.Title, mainMarker) {
		t.Errorf("title %q, want the prompt (not the context the agent injects before it)", s.Title)
	}
	reading := logReading{count: anthropicBodyTokens, tolerance: 0.005, wireLacks: billingHeader, wireExtra: noPart}
	checkThread(t, "main", s, main, mainMarker, srv, rec, reading)
	checkThread(t, "subagent", s, sub, subMarker, srv, rec, reading)
	compareSections(t, "main", main, srv.Requests(), mainMarker)
	compareSections(t, "subagent", sub, srv.Requests(), subMarker)
}

// threadsOf returns the main thread and the one subagent thread of s.
func threadsOf(t *testing.T, s *session.Session) (main, sub *session.Thread) {
	t.Helper()
	for _, th := range s.Threads {
		switch {
		case th.Kind == session.ThreadMain && main == nil:
			main = th
		case th.Kind != session.ThreadMain && sub == nil && len(th.Entries) > 0:
			sub = th
		}
	}
	if main == nil || sub == nil {
		kinds := []string{}
		for _, th := range s.Threads {
			kinds = append(kinds, string(th.Kind)+"("+th.ID+")")
		}
		t.Fatalf("want a main and a subagent thread, got %v", kinds)
	}
	return main, sub
}
