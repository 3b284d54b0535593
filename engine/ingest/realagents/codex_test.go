package realagents

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/modeltest"
	"ctxscope/engine/session"
)

// TestCodex runs Codex, configured with the model server as a Responses
// provider, on the scripted task, and checks ctxscope's reading of its
// rollout against what the server received and answered.
func TestCodex(t *testing.T) {
	agent := pinnedAgent(t, "codex")
	sb := newSandbox(t, project)
	srv := modeltest.Start(codingTask(sb.work, false))
	defer srv.Close()
	rec := startProxy(t, srv)
	codexHome := filepath.Join(sb.home, ".codex")
	sb.writeFile(t, filepath.Join(codexHome, "config.toml"), codexConfig(rec.base, ""))
	bin := filepath.Join(agent.dir, "node_modules", "@openai", "codex-linux-x64", "vendor", "x86_64-unknown-linux-musl", "bin", "codex")
	sb.run(t, 3*time.Minute, []string{"CODEX_HOME=" + codexHome, "MOCK_API_KEY=test-key"},
		bin, "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "-C", sb.work, "--json", prompt)
	sb.checkFixed(t)

	s := readLog(t, filepath.Join(codexHome, "sessions", "*", "*", "*", "rollout-*.jsonl"), session.FormatCodex, agent.version)
	if !strings.HasPrefix(s.Title, mainMarker) {
		t.Errorf("title %q, want the prompt (not the context the agent injects before it)", s.Title)
	}
	// The log's system prompt is session_meta.base_instructions, which
	// holds one line (about 30 tokens) that Codex 0.171 leaves out of the
	// developer message it sends with gpt-5.5: the reading is that much
	// over, 0.56% of the first request; beside the wire, that block shows
	// on both sides.
	checkThread(t, "main", s, s.Threads[0], mainMarker, srv, rec,
		logReading{count: responsesBodyTokens, lacks: "the tool schemas", tolerance: 0.01, wireLacks: promptOrSchemas, wireExtra: systemText})
	if !compareTotals(t, s) {
		t.Error("the agent's own totals are not read")
	}
}

// codexConfig is Codex's config.toml for a run against the model server at
// base (a Responses provider, no retries, no analytics, bodies
// uncompressed), with extra TOML after it.
func codexConfig(base, extra string) string {
	return fmt.Sprintf(`model = "gpt-5.5"
model_provider = "mock"

[model_providers.mock]
name = "mock"
base_url = "%s/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[features]
enable_request_compression = false

%s`, base, extra)
}
