package realagents

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/modeltest"
	"ctxscope/engine/session"
)

// TestCopilotCLI runs GitHub Copilot CLI, bringing its own key to the
// model server over Chat Completions, on the scripted task with a
// subagent (its task tool), and checks ctxscope's reading of its
// events.jsonl against what the server received and answered.
func TestCopilotCLI(t *testing.T) {
	agent := pinnedAgent(t, "copilot-cli")
	sb := newSandbox(t, project)
	srv := modeltest.Start(codingTask(sb.work, true))
	defer srv.Close()
	rec := startProxy(t, srv)
	bin := filepath.Join(agent.dir, "node_modules", "@github", "copilot-linux-x64", "copilot")
	sb.run(t, 3*time.Minute, []string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + rec.base + "/v1", "COPILOT_PROVIDER_TYPE=openai",
		"COPILOT_PROVIDER_API_KEY=test-key", "COPILOT_PROVIDER_WIRE_API=completions", "COPILOT_MODEL=gpt-4.1"},
		bin, "-p", prompt, "--allow-all-tools", "--no-auto-update", "--disable-client-telemetry", "--model", "gpt-4.1")
	sb.checkFixed(t)

	s := readLog(t, filepath.Join(sb.home, ".copilot", "session-state", "*", "events.jsonl"), session.FormatCopilot, agent.version)
	if !strings.HasPrefix(s.Title, mainMarker) {
		t.Errorf("title %q, want the prompt (not the context the agent injects before it)", s.Title)
	}
	main, sub := threadsOf(t, s)
	reading := logReading{count: chatBodyTokens, lacks: "the tool schemas", tolerance: 0.005, wireLacks: schemas, wireExtra: noPart}
	checkThread(t, "main", s, main, mainMarker, srv, rec, reading)
	checkThread(t, "subagent", s, sub, subMarker, srv, rec, reading)
	if !compareTotals(t, s) {
		t.Error("the agent's own totals are not read")
	}
}
