package realagents

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"ctxscope/engine/modeltest"
	"ctxscope/engine/session"
)

// TestOpenCode runs OpenCode, with the model server as an
// OpenAI-compatible provider, on the scripted task, and checks ctxscope's
// reading of its opencode.db (most of whose rows are still in the
// write-ahead log) against what the server received and answered.
func TestOpenCode(t *testing.T) {
	agent := pinnedAgent(t, "opencode")
	sb := newSandbox(t, project)
	srv := modeltest.Start(codingTaskWith(sb.work, true, "general"))
	defer srv.Close()
	rec := startProxy(t, srv)
	sb.writeFile(t, filepath.Join(sb.home, ".config", "opencode", "opencode.json"), fmt.Sprintf(`{
  "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "mock", "options": {"baseURL": "%s/v1", "apiKey": "test-key"},
    "models": {"gpt-4.1": {"name": "gpt-4.1", "tool_call": true, "limit": {"context": 128000, "output": 16000}}}}},
  "permission": {"*": "allow"}, "autoupdate": false, "share": "disabled"
}`, rec.base))
	sb.run(t, 4*time.Minute, []string{"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1"},
		filepath.Join(agent.dir, "node_modules", "opencode-linux-x64", "bin", "opencode"), "run", "--model", "mock/gpt-4.1", "--format", "json", prompt)
	sb.checkFixed(t)

	s := readLog(t, filepath.Join(sb.home, ".local", "share", "opencode", "opencode.db"), session.FormatOpenCode, agent.version)
	main, sub := threadsOf(t, s)
	// The log holds no system message; the wire's reading has the one
	// the body sends.
	reading := logReading{count: chatBodyTokensNoSystem, wireCount: chatBodyTokens, lacks: "the system prompt and the tool schemas", tolerance: 0.005, wireLacks: promptOrSchemas, wireExtra: noPart}
	checkThread(t, "main", s, main, mainMarker, srv, rec, reading)
	checkThread(t, "subagent", s, sub, subMarker, srv, rec, reading)
}
