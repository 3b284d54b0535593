package realagents

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/debug"
	"ctxscope/engine/ingest"
	"ctxscope/engine/mcprecall"
	"ctxscope/engine/memory/code"
	"ctxscope/engine/modeltest"
	"ctxscope/engine/proxy"
	"ctxscope/engine/recall"
	"ctxscope/engine/tokens"
	"ctxscope/search/lexical"
)

// longCodingTask is the scripted task played twice over, 40 tool calls,
// with a call of the recall tool after the first 17: the agent asks for
// notes.md back, which it last read 8 calls before and which eviction has
// removed by then.
func longCodingTask(workdir string) modeltest.Script {
	s := codingTask(workdir, false)
	steps := s.Tasks[0].Steps
	recallStep := modeltest.Step{Say: "Recalling what the notes said.", Calls: []modeltest.Action{{Kind: modeltest.Recall, Query: "notes.md: where does the adder live"}}}
	long := append(append([]modeltest.Step{}, steps[:17]...), recallStep)
	s.Tasks[0].Steps = append(append(long, steps[17:]...), steps...)
	return s
}

// notesLine is a line of notes.md that only a read of it, or a recall,
// puts in a request.
const notesLine = "The adder lives in calc.sh"

// TestClaudeCodeRecallsOverMCP runs the real Claude Code on a task of 41
// tool calls through the proxy, evicting at τ 19,000 (its system prompt
// and schemas take about 17,000), with ctxscope's MCP server (streamable
// HTTP, in this process) in its MCP settings. Besides what underEviction
// checks (completion, pairing, every request at or under τ or marked
// unreachable, the replay reproducing every forwarded body), the model
// calls recall halfway: the request it asked in no longer holds notes.md
// (evicted), and the server then receives the recall's result, which
// holds it, marked with the level that evicted it.
func TestClaudeCodeRecallsOverMCP(t *testing.T) {
	agent := pinnedAgent(t, "claude-code")
	sb := newSandbox(t, project)
	const budget = 19000
	var url, records string
	reqs, _ := underEviction(t, sb, longCodingTask(sb.work), budget, func(dir string) { records, url = dir, recallServer(t, dir, budget) }, func(base string) {
		cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"ctxscope": map[string]any{"type": "http", "url": url}}})
		bin := filepath.Join(agent.dir, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude")
		sb.run(t, 6*time.Minute, []string{"ANTHROPIC_BASE_URL=" + base, "ANTHROPIC_API_KEY=test-key",
			"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1"},
			bin, "-p", prompt, "--dangerously-skip-permissions", "--model", "claude-sonnet-4-5", "--output-format", "stream-json", "--verbose",
			"--mcp-config", string(cfg), "--strict-mcp-config")
	})
	checkRecall(t, reqs)
	measureLookBacks(t, records, budget)
}

// recallServer serves ctxscope's MCP recall over the proxy's records in
// dir, evicted under the paper policy at budget, on streamable HTTP, and
// returns its URL.
func recallServer(t *testing.T, dir string, budget int) string {
	t.Helper()
	recs := &mcprecall.Records{Dir: dir, Params: debug.Params{Policy: "paper", Budget: budget, Episodes: "inferred"},
		Options: recall.Options{Counter: tokens.Estimator{}, Index: lexical.Build}}
	h, err := mcprecall.ListenHTTP(mcprecall.NewServer(recs, "test"), "127.0.0.1:0", proxy.NewToken())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h.URL()
}

// checkRecall checks the requests the model server received in a run of
// longCodingTask: at least 40 tool calls, a call of the recall tool made
// in a request that no longer held notes.md, and the next request of the
// task holding the recall's result, with notes.md and the level that had
// evicted it.
func checkRecall(t *testing.T, reqs []modeltest.Request) {
	t.Helper()
	calls := 0
	asked := -1 // the request the model called recall in
	for k, r := range reqs {
		if r.Task != mainMarker {
			continue
		}
		for _, c := range r.Calls {
			calls++
			if strings.HasSuffix(c.Name, "recall") {
				asked = k
			}
		}
	}
	if calls < 40 {
		t.Errorf("%d tool calls, want at least 40", calls)
	}
	if asked < 0 {
		t.Fatal("the model never called recall: the agent did not offer ctxscope's tool")
	}
	if strings.Contains(string(reqs[asked].Body), notesLine) {
		t.Errorf("the request recall was called in still held notes.md: nothing was evicted to recall")
	}
	var answer string
	for _, r := range reqs[asked+1:] {
		if r.Task == mainMarker {
			answer = string(r.Body)
			break
		}
	}
	i := strings.Index(answer, "Recalled ")
	if i < 0 {
		t.Fatal("the request after the recall call holds no recall result")
	}
	got := answer[i:]
	if !strings.Contains(got, notesLine) || !strings.Contains(got, "evicted at L") {
		t.Errorf("the recall's result, as the server received it, lacks notes.md or its level: %.600s", got)
	}
	t.Logf("%d tool calls; recall asked in request %d of %d, answered with notes.md", calls, asked+1, len(reqs))
}

// TestGeminiCLIRecallsOverMCP runs the real Gemini CLI on the 41-call task
// through the proxy under eviction, with ctxscope's MCP server in its
// settings (httpUrl), and checks what TestClaudeCodeRecallsOverMCP does.
func TestGeminiCLIRecallsOverMCP(t *testing.T) {
	agent := pinnedAgent(t, "gemini-cli")
	sb := newSandbox(t, project)
	const budget = 12000
	var url, records string
	reqs, _ := underEviction(t, sb, longCodingTask(sb.work), budget, func(dir string) { records, url = dir, recallServer(t, dir, budget) }, func(base string) {
		sb.writeFile(t, filepath.Join(sb.home, ".gemini", "settings.json"), `{"security":{"auth":{"selectedType":"gemini-api-key"}},`+
			`"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},"general":{"disableAutoUpdate":true,"disableUpdateNag":true},"ide":{"enabled":false},`+
			`"mcpServers":{"ctxscope":{"httpUrl":"`+url+`","trust":true}}}`)
		sb.run(t, 6*time.Minute, []string{"GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL=" + base, "GEMINI_CLI_TRUST_WORKSPACE=true", "GEMINI_CLI_NO_RELAUNCH=true"},
			"/usr/bin/node", filepath.Join(agent.dir, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js"),
			"-p", prompt, "--yolo", "-m", "gemini-2.5-pro", "--output-format", "json")
	})
	checkRecall(t, reqs)
	measureLookBacks(t, records, budget)
}

// TestOpenCodeRecallsOverMCP runs the real OpenCode on the 41-call task
// through the proxy under eviction, with ctxscope's MCP server in its
// opencode.json (a remote server), and checks what
// TestClaudeCodeRecallsOverMCP does.
func TestOpenCodeRecallsOverMCP(t *testing.T) {
	agent := pinnedAgent(t, "opencode")
	sb := newSandbox(t, project)
	const budget = 6000
	var url, records string
	reqs, _ := underEviction(t, sb, longCodingTask(sb.work), budget, func(dir string) { records, url = dir, recallServer(t, dir, budget) }, func(base string) {
		sb.writeFile(t, filepath.Join(sb.home, ".config", "opencode", "opencode.json"), fmt.Sprintf(`{
  "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "mock", "options": {"baseURL": "%s/v1", "apiKey": "test-key"},
    "models": {"gpt-4.1": {"name": "gpt-4.1", "tool_call": true, "limit": {"context": 128000, "output": 16000}}}}},
  "mcp": {"ctxscope": {"type": "remote", "url": "%s", "enabled": true}},
  "permission": {"*": "allow"}, "autoupdate": false, "share": "disabled"
}`, base, url))
		sb.run(t, 6*time.Minute, []string{"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1"},
			filepath.Join(agent.dir, "node_modules", "opencode-linux-x64", "bin", "opencode"), "run", "--model", "mock/gpt-4.1", "--format", "json", prompt)
	})
	checkRecall(t, reqs)
	measureLookBacks(t, records, budget)
}

// TestCopilotCLIRecallsOverMCP runs the real Copilot CLI on the 41-call
// task through the proxy under eviction, with ctxscope's MCP server given
// by --additional-mcp-config (an http server), and checks what
// TestClaudeCodeRecallsOverMCP does.
func TestCopilotCLIRecallsOverMCP(t *testing.T) {
	agent := pinnedAgent(t, "copilot-cli")
	sb := newSandbox(t, project)
	const budget = 8000
	var url, records string
	reqs, _ := underEviction(t, sb, longCodingTask(sb.work), budget, func(dir string) { records, url = dir, recallServer(t, dir, budget) }, func(base string) {
		cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"ctxscope": map[string]any{"type": "http", "url": url, "tools": []string{"*"}}}})
		bin := filepath.Join(agent.dir, "node_modules", "@github", "copilot-linux-x64", "copilot")
		sb.run(t, 6*time.Minute, []string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + base + "/v1", "COPILOT_PROVIDER_TYPE=openai",
			"COPILOT_PROVIDER_API_KEY=test-key", "COPILOT_PROVIDER_WIRE_API=completions", "COPILOT_MODEL=gpt-4.1"},
			bin, "-p", prompt, "--allow-all-tools", "--no-auto-update", "--disable-client-telemetry", "--model", "gpt-4.1",
			"--additional-mcp-config", string(cfg))
	})
	checkRecall(t, reqs)
	measureLookBacks(t, records, budget)
}

// TestCodexRecallsOverMCP runs the real Codex on the 41-call task through
// the proxy under eviction, with ctxscope's MCP server in its config.toml
// (a streamable HTTP server), and checks what
// TestClaudeCodeRecallsOverMCP does.
func TestCodexRecallsOverMCP(t *testing.T) {
	agent := pinnedAgent(t, "codex")
	sb := newSandbox(t, project)
	const budget = 10000
	var url, records string
	reqs, _ := underEviction(t, sb, longCodingTask(sb.work), budget, func(dir string) { records, url = dir, recallServer(t, dir, budget) }, func(base string) {
		codexHome := filepath.Join(sb.home, ".codex")
		sb.writeFile(t, filepath.Join(codexHome, "config.toml"), codexConfig(base, fmt.Sprintf("[mcp_servers.ctxscope]\nurl = %q\n", url)))
		bin := filepath.Join(agent.dir, "node_modules", "@openai", "codex-linux-x64", "vendor", "x86_64-unknown-linux-musl", "bin", "codex")
		sb.run(t, 6*time.Minute, []string{"CODEX_HOME=" + codexHome, "MOCK_API_KEY=test-key"},
			bin, "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "-C", sb.work, "--json", prompt)
	})
	checkRecall(t, reqs)
	measureLookBacks(t, records, budget)
}

// measureLookBacks replays the recorded conversation of a run of
// longCodingTask under the paper policy at budget and measures, at every
// look-back (the task's second play reads again what its first read, by
// then evicted), what a recall of recall.DefaultBudget tokens brings back
// of the evicted read: the session memory's graph channel with BM25, and
// BM25 alone. It logs the figures (docs/bench/session-memory.md reports
// them) and fails when the replay finds no look-back.
func measureLookBacks(t *testing.T, dir string, budget int) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	var main string
	var size int64
	for _, f := range files { // the task's conversation is the largest
		if st, err := os.Stat(f); err == nil && st.Size() > size {
			main, size = f, st.Size()
		}
	}
	if main == "" {
		t.Fatal("no conversation recorded")
	}
	sess, err := ingest.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	p := debug.Params{Policy: "paper", Budget: budget, Episodes: "inferred"}
	rep, err := debug.New(context.Background(), sess, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	life, err := rep.Lifecycle(p)
	if err != nil {
		t.Fatal(err)
	}
	mem := code.ReadSession(sess.ID, sess, nil)
	r, err := recall.Evaluate(mem, rep.Thread, 0, life, recall.Options{Counter: tokens.Estimator{}, Index: lexical.Build})
	if err != nil {
		t.Fatal(err)
	}
	if r.LookBacks+r.Skipped == 0 {
		t.Fatalf("the replay at τ %d finds no look-back in %d requests", budget, life.Requests)
	}
	t.Logf("look-backs at τ %d over %d requests: %d (%d not in the memory); memory recovered %d (%d tokens), BM25 %d (%d tokens)",
		budget, life.Requests, r.LookBacks, r.Skipped, r.Memory.Recovered, r.Memory.Tokens, r.BM25.Recovered, r.BM25.Tokens)
	if r.Memory.Recovered < r.BM25.Recovered {
		t.Errorf("the memory brings back %d evicted reads, BM25 over the same passages %d", r.Memory.Recovered, r.BM25.Recovered)
	}
}
