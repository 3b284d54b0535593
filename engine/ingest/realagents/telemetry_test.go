package realagents

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"ctxscope/engine/ingest/otlp"
	"ctxscope/engine/modeltest"
	"ctxscope/engine/session"
)

// otlpSink is an OTLP/HTTP JSON receiver that files each export as
// ctxscope's receiver does (otlp.Spooler), one spool file per
// conversation in dir.
type otlpSink struct {
	*httptest.Server
	dir   string
	mu    sync.Mutex
	spool *otlp.Spooler
}

func newOTLPSink(t *testing.T) *otlpSink {
	t.Helper()
	s := &otlpSink{dir: t.TempDir(), spool: otlp.NewSpooler()}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sig := otlp.Traces
		if strings.HasSuffix(r.URL.Path, "/v1/logs") {
			sig = otlp.Logs
		}
		body, _ := io.ReadAll(r.Body)
		groups, _, err := s.spool.Split(sig, body, strings.HasPrefix(r.Header.Get("Content-Type"), "application/json"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		for k, part := range groups {
			f, err := os.OpenFile(filepath.Join(s.dir, fmt.Sprintf("%x.otlp.jsonl", k)), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			f.Write(append(part, '\n'))
			f.Close()
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{}")
	}))
	t.Cleanup(s.Close)
	return s
}

// TestCodexTelemetry runs the real Codex on the scripted task with its
// OpenTelemetry logs exporter ([otel] in config.toml) pointed at an OTLP
// receiver that files exports as ctxscope's does, and reads the spool as
// ctxscope's importer does. The session must hold what Codex's telemetry
// can: the prompt, every tool call the model server made with the result
// the server then received, and each response's usage as the server
// reported it; and it must say what the telemetry lacks, which the test
// measures on the first request the server received.
func TestCodexTelemetry(t *testing.T) {
	agent := pinnedAgent(t, "codex")
	sb := newSandbox(t, project)
	srv := modeltest.Start(codingTask(sb.work, false))
	defer srv.Close()
	sink := newOTLPSink(t)
	codexHome := filepath.Join(sb.home, ".codex")
	sb.writeFile(t, filepath.Join(codexHome, "config.toml"), codexConfig(srv.URL, fmt.Sprintf(`[otel]
environment = "test"
log_user_prompt = true
exporter = { otlp-http = { endpoint = "%s/v1/logs", protocol = "json" } }
`, sink.URL)))
	bin := filepath.Join(agent.dir, "node_modules", "@openai", "codex-linux-x64", "vendor", "x86_64-unknown-linux-musl", "bin", "codex")
	sb.run(t, 3*time.Minute, []string{"CODEX_HOME=" + codexHome, "MOCK_API_KEY=test-key"},
		bin, "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "-C", sb.work, "--json", prompt)
	sb.checkFixed(t)

	reqs := mainRequests(srv)
	sess := telemetrySession(t, sink.dir)
	// Every call the server made, response by response, with its
	// arguments, and the result the server received for it. Codex logs
	// the calls of one response as it dispatches them, at once, so their
	// order within a response is not the model's (seen under the race
	// detector): each response's calls are compared as a set.
	results := reqs[len(reqs)-1].ToolResults()
	var want, got []string
	for _, r := range reqs {
		var calls []string
		for _, c := range r.Calls {
			args := c.Text
			if !c.Freeform {
				b, _ := json.Marshal(c.Input)
				args = string(b)
			}
			calls = append(calls, fmt.Sprintf("%s %s %s -> %q", c.ID, c.Name, args, results[c.ID]))
		}
		sort.Strings(calls)
		want = append(want, calls...)
	}
	outputs := resultTexts(sess)
	for _, e := range sess.Main().Entries {
		m := e.Message
		if m.Role != session.RoleAssistant {
			continue
		}
		var calls []string
		for _, b := range m.Blocks {
			if b.Type == session.BlockToolCall {
				args := string(b.Arguments)
				var text string
				if json.Unmarshal(b.Arguments, &text) == nil {
					args = text // a freeform tool's patch
				} else {
					var v any
					json.Unmarshal(b.Arguments, &v)
					n, _ := json.Marshal(v)
					args = string(n)
				}
				calls = append(calls, fmt.Sprintf("%s %s %s -> %q", b.ToolCallID, b.ToolName, args, outputs[b.ToolCallID]))
			}
		}
		sort.Strings(calls)
		got = append(got, calls...)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tool calls and results in the session:\n%s\nwhat the model server made and received:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	checkUsage(t, sess, reqs)
	answers := 0
	for _, e := range sess.Main().Entries {
		if e.Message.Role == session.RoleAssistant {
			answers++
		}
	}
	if answers != len(reqs) {
		t.Errorf("%d answers in the session, %d responses from the model server", answers, len(reqs))
	}
	said := false
	for _, d := range sess.Diagnostics {
		said = said || strings.Contains(d.Message, "not the system and developer messages, the tool schemas")
	}
	if !said {
		t.Errorf("the session does not say what the telemetry lacks: %+v", sess.Diagnostics)
	}
	lacks := lackedByTelemetry(t, reqs[0].Body)
	t.Logf("%d calls and %d responses' usage matched; the telemetry lacks, of the first request: %s", len(want), len(reqs), lacks)
}

// telemetrySession reads the one session the spool files in dir hold.
func telemetrySession(t *testing.T, dir string) *session.Session {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.otlp.jsonl"))
	var sessions []*session.Session
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		err = otlp.Importer{}.ImportEach(fh, f, func(s *session.Session) error {
			if len(s.Main().Entries) > 0 {
				sessions = append(sessions, s)
			}
			return nil
		})
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(sessions) != 1 {
		t.Fatalf("%d sessions from %d spool files, want 1", len(sessions), len(files))
	}
	return sessions[0]
}

// lackedByTelemetry measures, in a Responses request body, what Codex's
// telemetry does not record: the instructions, the developer and system
// messages, and the tool schemas.
func lackedByTelemetry(t *testing.T, body []byte) string {
	t.Helper()
	var req struct {
		Instructions string            `json:"instructions"`
		Tools        []json.RawMessage `json:"tools"`
		Input        []struct {
			Type    string          `json:"type"`
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	dev := 0
	for _, it := range req.Input {
		if it.Role == "developer" || it.Role == "system" {
			dev += len(it.Content)
		}
	}
	tools := 0
	for _, tl := range req.Tools {
		tools += len(tl)
	}
	return fmt.Sprintf("instructions %d bytes, developer and system messages %d bytes, %d tool schemas %d bytes (the body: %d bytes)",
		len(req.Instructions), dev, len(req.Tools), tools, len(body))
}

// TestClaudeCodeTelemetry runs the real Claude Code on the scripted task
// with its telemetry on (CLAUDE_CODE_ENABLE_TELEMETRY, an OTLP logs
// exporter, prompts and tool details logged) pointed at an OTLP receiver
// that files exports as ctxscope's does, and reads the spool as
// ctxscope's importer does. The session must hold what the telemetry can:
// the prompt, every tool call the model server made with its input, each
// API request's usage as the server reported it, and the model's texts;
// each result only as the size the tool returned (the test logs it beside
// the size the model received); and it must say what it lacks.
func TestClaudeCodeTelemetry(t *testing.T) {
	agent := pinnedAgent(t, "claude-code")
	sb := newSandbox(t, project)
	script := codingTask(sb.work, false)
	srv := modeltest.Start(script)
	defer srv.Close()
	sink := newOTLPSink(t)
	bin := filepath.Join(agent.dir, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude")
	sb.run(t, 3*time.Minute, []string{"ANTHROPIC_BASE_URL=" + srv.URL, "ANTHROPIC_API_KEY=test-key", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_ENABLE_TELEMETRY=1", "OTEL_LOGS_EXPORTER=otlp", "OTEL_METRICS_EXPORTER=none", "OTEL_EXPORTER_OTLP_PROTOCOL=http/json",
		"OTEL_EXPORTER_OTLP_ENDPOINT=" + sink.URL, "OTEL_LOG_USER_PROMPTS=1", "OTEL_LOG_TOOL_DETAILS=1", "OTEL_LOGS_EXPORT_INTERVAL=500"},
		bin, "-p", prompt, "--dangerously-skip-permissions", "--model", "claude-sonnet-4-5", "--output-format", "stream-json", "--verbose")
	sb.checkFixed(t)

	reqs := mainRequests(srv)
	sess := telemetrySession(t, sink.dir)
	results := reqs[len(reqs)-1].ToolResults()
	var want, got, texts []string
	received, returned := 0, 0
	sent := map[string]map[string]any{} // the model's arguments, by call
	for _, r := range reqs {
		for _, c := range r.Calls {
			want = append(want, fmt.Sprintf("%s %s", c.ID, c.Name))
			sent[c.ID] = c.Input
			received += len(results[c.ID])
		}
	}
	sizes := resultTexts(sess)
	for _, e := range sess.Main().Entries {
		m := e.Message
		if m.Role != session.RoleAssistant {
			continue
		}
		for _, b := range m.Blocks {
			switch b.Type {
			case session.BlockText:
				texts = append(texts, b.Text)
			case session.BlockToolCall:
				// The run's input holds what the model sent, and the
				// tool's defaults beside it (Edit's replace_all).
				var v map[string]any
				json.Unmarshal(b.Arguments, &v)
				for k, x := range sent[b.ToolCallID] {
					if fmt.Sprint(v[k]) != fmt.Sprint(x) {
						t.Errorf("call %s: argument %s is %v in the session, %v as the model sent it", b.ToolCallID, k, v[k], x)
					}
				}
				var size int
				if _, err := fmt.Sscanf(strings.TrimPrefix(sizes[b.ToolCallID], "[not in Claude Code's telemetry: the tool returned "), "%d", &size); err != nil {
					t.Errorf("call %s: its result is %q", b.ToolCallID, sizes[b.ToolCallID])
				}
				returned += size
				got = append(got, fmt.Sprintf("%s %s", b.ToolCallID, b.ToolName))
			}
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tool calls in the session:\n%s\nwhat the model server made:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	checkUsage(t, sess, reqs)
	var says []string
	for _, st := range script.Tasks[0].Steps {
		if st.Say != "" {
			says = append(says, st.Say)
		}
	}
	says = append(says, script.Tasks[0].Final)
	if strings.Join(texts, "|") != strings.Join(says, "|") {
		t.Errorf("the model's texts %q, the server's %q", texts, says)
	}
	said := false
	for _, d := range sess.Diagnostics {
		said = said || strings.Contains(d.Message, "not the results themselves, the system prompt")
	}
	if !said {
		t.Errorf("the session does not say what the telemetry lacks: %+v", sess.Diagnostics)
	}
	t.Logf("%d calls, %d requests' usage and %d texts matched; the tools returned %d bytes, the model received %d as their results; the telemetry lacks, of the first request: %s",
		len(want), len(reqs), len(texts), returned, received, lackedByClaudeTelemetry(t, reqs[0].Body))
}

// lackedByClaudeTelemetry measures, in a Messages request body, what
// Claude Code's telemetry does not record: the system prompt, the tool
// schemas, and the user messages' text beyond the prompt (the context it
// injects).
func lackedByClaudeTelemetry(t *testing.T, body []byte) string {
	t.Helper()
	var req struct {
		System   json.RawMessage   `json:"system"`
		Tools    []json.RawMessage `json:"tools"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	tools := 0
	for _, tl := range req.Tools {
		tools += len(tl)
	}
	user := 0
	for _, m := range req.Messages {
		if m.Role == "user" {
			user += len(m.Content)
		}
	}
	return fmt.Sprintf("system prompt %d bytes, %d tool schemas %d bytes, user messages %d bytes of which the prompt is %d (the body: %d bytes)",
		len(req.System), len(req.Tools), tools, user, len(prompt), len(body))
}

// mainRequests are the requests of the task the model server received.
func mainRequests(srv *modeltest.Server) []modeltest.Request {
	var out []modeltest.Request
	for _, r := range srv.Requests() {
		if r.Task == mainMarker {
			out = append(out, r)
		}
	}
	return out
}

// resultTexts are the text of each tool result of sess, by call id.
func resultTexts(sess *session.Session) map[string]string {
	out := map[string]string{}
	for _, e := range sess.Main().Entries {
		for _, b := range e.Message.Blocks {
			if b.Type == session.BlockToolResult && len(b.Content) > 0 {
				out[b.ToolCallID] = b.Content[0].Text
			}
		}
	}
	return out
}

// checkUsage checks that sess opens with the task's prompt and that its
// answers carry, in order, the usage the model server reported for each
// of reqs.
func checkUsage(t *testing.T, sess *session.Session, reqs []modeltest.Request) {
	t.Helper()
	if m := sess.Main().Entries[0].Message; m.Role != session.RoleUser || m.Blocks[0].Text != prompt {
		t.Errorf("the first message is not the prompt: %+v", m)
	}
	var got, want []string
	for _, e := range sess.Main().Entries {
		if u := e.Message.Usage; e.Message.Role == session.RoleAssistant && u != nil {
			got = append(got, fmt.Sprintf("in %d cached %d out %d", u.Input, u.CacheRead, u.Output))
		}
	}
	for _, r := range reqs {
		want = append(want, fmt.Sprintf("in %d cached %d out %d", r.Usage.Input, r.Usage.CacheRead, r.Usage.Output))
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("usage %v, the model server reported %v", got, want)
	}
}
