package serve

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/modeltest"
	"ctxscope/engine/session"
	"ctxscope/engine/store"
)

// otelClients is the Node project of the OpenTelemetry clients these tests
// run; scripts/setup.sh test installs its packages.
const otelClients = "../../scripts/otel-clients"

// clientTask is the task the clients play: two reads, then an answer.
func clientTask() modeltest.Script {
	read := func(p string) modeltest.Action { return modeltest.Action{Kind: modeltest.Read, Path: p} }
	return modeltest.Script{Workdir: "/w", Tasks: []modeltest.Task{{Marker: "OTEL-CLIENT-TASK", Final: "The adder subtracts; it should add.",
		Steps: []modeltest.Step{{Say: "Reading the notes.", Calls: []modeltest.Action{read("notes.md")}}, {Calls: []modeltest.Action{read("calc.sh")}}}}}}
}

// TestOTelClients runs real OpenTelemetry clients on the task against
// the test model server, each exporting with the OpenTelemetry Node SDK
// to serve: the official openai Node client instrumented by
// @opentelemetry/instrumentation-openai (messages as log events) and by
// @traceloop/instrumentation-openai (messages on spans), the Vercel AI
// SDK's telemetry (@ai-sdk/otel), and the Anthropic SDK's own spans. The session the exports
// become must hold what the model server received and answered: every
// message, call and result of the last request and its answer, and each
// call's usage, and the tools it offered, where the client records them
// (the openai instrumentations record no cached tokens, so there only the
// whole input; two clients record no tools; docs/ingest.md says so).
func TestOTelClients(t *testing.T) {
	if _, err := os.Stat(filepath.Join(otelClients, "node_modules", "@opentelemetry", "sdk-node")); err != nil {
		t.Fatalf("the OpenTelemetry clients are not installed in %s: run scripts/setup.sh test (make test does)", otelClients)
	}
	for _, tc := range []struct {
		name, script, inst string
		digest             func(*testing.T, []byte) []string // of what the model server received
		cached             bool                              // the client records the cached part of the input
		tools              bool                              // the client records the tools offered (gen_ai.tool.definitions)
	}{
		{"openai+otel", "openai.cjs", "otel", chatDigest, false, false},
		{"openai+traceloop", "openai.cjs", "traceloop", chatDigest, false, true},
		{"ai-sdk", "ai-sdk.mjs", "", chatDigest, true, true},
		{"anthropic-sdk", "anthropic.cjs", "", anthropicDigest, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.Start(clientTask())
			defer srv.Close()
			dir := t.TempDir()
			s := startIn(t, dir)
			st, err := store.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			files, _ := json.Marshal(map[string]string{"/w/notes.md": "# notes\nThe adder lives in calc.sh.\n", "/w/calc.sh": "add() { echo $(( $1 - $2 )); }\n"})
			cmd := exec.Command("node", tc.script)
			cmd.Dir = otelClients
			cmd.Env = append(os.Environ(), "MODEL_BASE_URL="+modelBase(srv.URL, tc.script), "PROMPT=OTEL-CLIENT-TASK: why does the test fail?",
				"FILES="+string(files), "INSTRUMENTATION="+tc.inst,
				"OTEL_EXPORTER_OTLP_ENDPOINT="+base(s), "OTEL_EXPORTER_OTLP_HEADERS="+strings.ToLower(tokenHeader)+"="+s.token,
				"OTEL_TRACES_EXPORTER=otlp", "OTEL_LOGS_EXPORTER=otlp", "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf",
				"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true", "OTEL_METRICS_EXPORTER=none", "TRACELOOP_TRACE_CONTENT=true",
				"ANTHROPIC_OPEN_TELEMETRY_TRACES_CONTENT_MODE=content")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("node %s: %v\n%s", tc.script, err, out)
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("the model server received %d requests, want 3", len(reqs))
			}
			sess := waitForSession(t, st, session.FormatOTLP)
			want := tc.digest(t, reqs[len(reqs)-1].Body)
			if tc.tools {
				want[0] += " | tool:read" // the tool's schema, named by its tool
			}
			want = append(want, "assistant text:The adder subtracts; it should add.")
			var got []string
			for _, e := range sess.Main().Entries {
				if m := e.Message; m != nil {
					got = append(got, clientDigest(m))
				}
			}
			// Usage: the openai instrumentations record no cached part of
			// the input (the model server reported one), so there the
			// session has the whole prompt as input, as the telemetry
			// says.
			usage := func(in, cached, out int) string {
				if !tc.cached {
					in, cached = in+cached, 0
				}
				return fmt.Sprintf("in %d cached %d out %d", in, cached, out)
			}
			var gotUsage, wantUsage []string
			for _, e := range sess.Main().Entries {
				if m := e.Message; m != nil && m.Role == session.RoleAssistant && m.Usage != nil {
					gotUsage = append(gotUsage, usage(m.Usage.Input, m.Usage.CacheRead, m.Usage.Output))
				}
			}
			for _, r := range reqs {
				wantUsage = append(wantUsage, usage(r.Usage.Input, r.Usage.CacheRead, r.Usage.Output))
			}
			if strings.Join(gotUsage, ", ") != strings.Join(wantUsage, ", ") {
				t.Errorf("usage %v, the model server reported %v", gotUsage, wantUsage)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("the session's messages:\n%s\nwhat the model server received and answered:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// waitForSession returns the one session of format f in the workspace,
// once its import has landed.
func waitForSession(t *testing.T, st *store.Store, f session.Format) *session.Session {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		list, err := st.Sessions(t.Context(), 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, si := range list {
			if si.Format == string(f) {
				s, err := st.Load(si.Key)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s session among %d", f, len(list))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// chatDigest reads the messages of a Chat Completions request body as
// contentDigest writes a session's.
func chatDigest(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role      string `json:"role"`
			Content   string `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name, Arguments string
				} `json:"function"`
			} `json:"tool_calls"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range req.Messages {
		var parts []string
		if m.Content != "" && m.Role != "tool" {
			parts = append(parts, "text:"+m.Content)
		}
		for _, c := range m.ToolCalls {
			var args any
			json.Unmarshal([]byte(c.Function.Arguments), &args)
			norm, _ := json.Marshal(args)
			parts = append(parts, "call:"+c.ID+":"+c.Function.Name+":"+string(norm))
		}
		if m.Role == "tool" {
			parts = append(parts, "result:"+m.ToolCallID+":"+m.Content)
		}
		out = append(out, fmt.Sprintf("%s %s", m.Role, strings.Join(parts, " | ")))
	}
	return out
}

// clientDigest is contentDigest with each tool schema of a system message
// as its tool's name: the clients record a schema in their own form.
func clientDigest(m *session.Message) string {
	if m.Role != session.RoleSystem {
		return contentDigest(m)
	}
	var parts []string
	for i := range m.Blocks {
		b := &m.Blocks[i]
		if session.SectionOf(m, b) == session.SectionToolSchema {
			parts = append(parts, "tool:"+b.ToolName)
		} else {
			parts = append(parts, "text:"+b.Text)
		}
	}
	return string(m.Role) + " " + strings.Join(parts, " | ")
}

// modelBase is the base URL a client script takes for the model server:
// the Anthropic SDK adds /v1 itself.
func modelBase(url, script string) string {
	if script == "anthropic.cjs" {
		return url
	}
	return url + "/v1"
}

// anthropicDigest reads the system prompt and messages of a Messages API
// request body as contentDigest writes a session's: a user message of
// tool results is the tool's.
func anthropicDigest(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct {
		System   string `json:"system"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	out := []string{"system text:" + req.System}
	for _, m := range req.Messages {
		var text string
		if json.Unmarshal(m.Content, &text) == nil {
			out = append(out, m.Role+" text:"+text)
			continue
		}
		var blocks []struct {
			Type      string          `json:"type"`
			Text      string          `json:"text"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			ToolUseID string          `json:"tool_use_id"`
			Input     json.RawMessage `json:"input"`
			Content   string          `json:"content"`
		}
		if err := json.Unmarshal(m.Content, &blocks); err != nil {
			t.Fatal(err)
		}
		role := m.Role
		var parts []string
		for _, b := range blocks {
			switch b.Type {
			case "text":
				parts = append(parts, "text:"+b.Text)
			case "tool_use":
				var args any
				json.Unmarshal(b.Input, &args)
				norm, _ := json.Marshal(args)
				parts = append(parts, "call:"+b.ID+":"+b.Name+":"+string(norm))
			case "tool_result":
				role = "tool"
				parts = append(parts, "result:"+b.ToolUseID+":"+b.Content)
			}
		}
		out = append(out, role+" "+strings.Join(parts, " | "))
	}
	return out
}
