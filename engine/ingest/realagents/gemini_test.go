package realagents

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/modeltest"
	"ctxscope/engine/session"
)

// TestGeminiCLI runs Gemini CLI, with an API key and its base URL set to
// the model server, on the scripted task, and checks ctxscope's reading of
// its chat log against what the server received and answered.
func TestGeminiCLI(t *testing.T) {
	agent := pinnedAgent(t, "gemini-cli")
	sb := newSandbox(t, project)
	srv := modeltest.Start(codingTaskWith(sb.work, true, "generalist"))
	defer srv.Close()
	rec := startProxy(t, srv)
	sb.writeFile(t, filepath.Join(sb.home, ".gemini", "settings.json"), `{"security":{"auth":{"selectedType":"gemini-api-key"}},`+
		`"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},"general":{"disableAutoUpdate":true,"disableUpdateNag":true},"ide":{"enabled":false}}`)
	sb.run(t, 3*time.Minute, []string{"GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL=" + rec.base, "GEMINI_CLI_TRUST_WORKSPACE=true", "GEMINI_CLI_NO_RELAUNCH=true"},
		"/usr/bin/node", filepath.Join(agent.dir, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js"),
		"-p", prompt, "--yolo", "-m", "gemini-2.5-pro", "--output-format", "json")
	sb.checkFixed(t)

	// The chat records no CLI version.
	s := readLog(t, filepath.Join(sb.home, ".gemini", "tmp", "*", "chats", "session-*.jsonl"), session.FormatGemini, "")
	if !strings.HasPrefix(s.Title, mainMarker) {
		t.Errorf("title %q, want the prompt (not the context the agent injects before it)", s.Title)
	}
	main, sub := threadsOf(t, s)
	reading := logReading{count: geminiBodyTokens, lacks: "the system instruction and the tool schemas", tolerance: 0.005, wireLacks: promptOrSchemas, wireExtra: noPart}
	checkThread(t, "main", s, main, mainMarker, srv, rec, reading)
	checkThread(t, "subagent", s, sub, subMarker, srv, rec, reading)
}
