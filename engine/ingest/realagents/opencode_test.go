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

	s := readLog(t, filepath.Join(sb.home, ".local", "share", "opencode", "opencode.db"), session.FormatOpenCode, agent.version)
	main, sub := threadsOf(t, s)
	compareThread(t, "main", main, srv.Requests(), mainMarker)
	compareThread(t, "subagent", sub, srv.Requests(), subMarker)
	compareInputs(t, "main", main, srv.Requests(), mainMarker, chatBodyTokensNoSystem, "the system prompt and the tool schemas", 0.005)
	compareInputs(t, "subagent", sub, srv.Requests(), subMarker, chatBodyTokensNoSystem, "the system prompt and the tool schemas", 0.005)
	compareRecords(t, "main", rec, srv, mainMarker, chatBodyTokens, 0.005)
	compareRecords(t, "subagent", rec, srv, subMarker, chatBodyTokens, 0.005)
	compareWire(t, "main", s, main, rec, promptOrSchemas, noPart)
	compareWire(t, "subagent", s, sub, rec, promptOrSchemas, noPart)
}
