package ingest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func ccLine(uuid, parent, extra string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"type":"user","uuid":"` + uuid + `","parentUuid":` + p + `,"sessionId":"sess","version":"2.0.1","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hi"}` + extra + "}\n"
}

// TestReadPathsJoinsSubagents imports a Claude Code project directory: a
// main transcript, its two subagent files and their .meta.json files. The
// subagents become threads of the main session, titled after their
// metadata, and the metadata files are not imported on their own.
func TestReadPathsJoinsSubagents(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "sess.jsonl"), ccLine("m1", "", ""))
	for _, a := range []string{"a1", "a2"} {
		write(t, filepath.Join(dir, "sess", "subagents", "agent-"+a+".jsonl"), ccLine(a+"u", "", `,"isSidechain":true,"agentId":"`+a+`"`))
	}
	write(t, filepath.Join(dir, "sess", "subagents", "agent-a1.meta.json"), `{"agentType":"Explore","description":"find the parser"}`)
	write(t, filepath.Join(dir, "sess", "subagents", "agent-a2.meta.json"), `{"agentType":`)
	write(t, filepath.Join(dir, ".hidden.jsonl"), "not read")
	ss, failed, err := ingest.ReadPaths([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || len(failed) != 0 {
		t.Fatalf("%d sessions, failed %v; want 1 session and no failures", len(ss), failed)
	}
	s := ss[0]
	if len(s.Threads) != 3 || s.Threads[1].ID != "agent-a1" || s.Threads[2].Kind != session.ThreadSubagent || s.ID != "sess" {
		t.Errorf("session %s threads %+v", s.ID, s.Threads)
	}
	if got := s.Threads[1].Title; got != "Explore: find the parser" {
		t.Errorf("subagent title %q, want the metadata's type and task", got)
	}
	var warned bool
	for _, d := range s.Diagnostics {
		warned = warned || (strings.HasSuffix(d.File, "agent-a2.meta.json") && d.Severity == session.SeverityWarning)
	}
	if !warned {
		t.Errorf("diagnostics %v, want a warning naming the broken agent-a2.meta.json", s.Diagnostics)
	}
	// Naming the main transcript alone brings its subagents too.
	ss, _, err = ingest.ReadPaths([]string{filepath.Join(dir, "sess.jsonl")})
	if err != nil || len(ss) != 1 || len(ss[0].Threads) != 3 {
		t.Errorf("from the main file: %d sessions (%v)", len(ss), err)
	}
}

// TestReadPathsJoinsGeminiSubagents reads a Gemini CLI 0.6x chat whose
// subagent's chat lies in chats/<session id>/: it is a subagent thread of
// the session, whether the directory or the main chat alone is named.
func TestReadPathsJoinsGeminiSubagents(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "chats")
	const parent = "4ffda32e-78fd-437d-81c5-8ea8a1ed52b7"
	chat := func(id, kind, text string) string {
		return `{"sessionId":"` + id + `","projectHash":"h","startTime":"2026-11-27T15:03:38Z","lastUpdated":"2026-11-27T15:03:38Z"` + kind + `}` + "\n" +
			`{"id":"u1","timestamp":"2026-11-27T15:03:38Z","type":"user","content":[{"text":"` + text + `"}]}` + "\n" +
			`{"id":"g1","timestamp":"2026-11-27T15:03:39Z","type":"gemini","content":"ok","tokens":{"input":10,"output":2,"cached":0,"thoughts":0,"tool":0,"total":12},"model":"gemini-2.5-pro"}` + "\n"
	}
	main := filepath.Join(dir, "session-2026-11-27T15-03-4ffda32e.jsonl")
	write(t, main, chat(parent, "", "fix it"))
	write(t, filepath.Join(dir, parent, "d523e5b8-84e8-4ab0-b54f-9280eda7a62d.jsonl"), chat("d523e5b8-84e8-4ab0-b54f-9280eda7a62d", `,"kind":"subagent"`, "check it"))
	for _, named := range []string{dir, main} {
		ss, failed, err := ingest.ReadPaths([]string{named})
		if err != nil || len(failed) != 0 || len(ss) != 1 {
			t.Fatalf("%s: %d sessions, failed %v, %v", named, len(ss), failed, err)
		}
		s := ss[0]
		if s.ID != parent || len(s.Threads) != 2 {
			t.Fatalf("%s: session %s with %d threads, want %s with the subagent's", named, s.ID, len(s.Threads), parent)
		}
		if sub := s.Threads[1]; sub.Kind != session.ThreadSubagent || sub.ParentID != parent || sub.ID != "d523e5b8-84e8-4ab0-b54f-9280eda7a62d" {
			t.Errorf("%s: subagent thread %s %s parent %s", named, sub.Kind, sub.ID, sub.ParentID)
		}
	}
}

func TestExpand(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.jsonl", "a.jsonl", "sub/c.json"} {
		write(t, filepath.Join(dir, n), "{}")
	}
	tests := []struct {
		name  string
		paths []string
		want  []string
	}{
		{"file", []string{filepath.Join(dir, "b.jsonl")}, []string{"b.jsonl"}},
		{"directory", []string{dir}, []string{"a.jsonl", "b.jsonl", "sub/c.json"}},
		{"glob", []string{filepath.Join(dir, "*.jsonl")}, []string{"a.jsonl", "b.jsonl"}},
		{"duplicates", []string{filepath.Join(dir, "a.jsonl"), dir}, []string{"a.jsonl", "b.jsonl", "sub/c.json"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ingest.Expand(tc.paths)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				got[i], _ = filepath.Rel(dir, got[i])
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	if _, err := ingest.Expand([]string{filepath.Join(dir, "*.none")}); err == nil {
		t.Error("a glob matching nothing should be an error")
	}
	if _, err := ingest.Expand([]string{filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing path should be an error")
	}
}

// TestChatShapes reads every shape of the OpenAI chat format.
func TestChatShapes(t *testing.T) {
	msgs := `[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"q"}]},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]},{"role":"tool","tool_call_id":"c1","name":"f","content":"r"}]`
	tests := []struct {
		name     string
		text     string
		sessions int
	}{
		{"array", msgs, 1},
		{"pretty array", strings.ReplaceAll(msgs, "},{", "},\n  {"), 1},
		{"object", `{"messages":` + msgs + `,"tools":[]}`, 1},
		{"jsonl objects", `{"messages":` + msgs + "}\n" + `{"messages":` + msgs + "}\n", 2},
		{"jsonl arrays", msgs + "\n" + msgs + "\n", 2},
		{"runs", `[{"task_id":1,"traj":` + msgs + `},{"task_id":2,"traj":` + msgs + `}]`, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ss, err := ingest.ReadAll(strings.NewReader(tc.text), "c.json")
			if err != nil {
				t.Fatal(err)
			}
			if len(ss) != tc.sessions {
				t.Fatalf("%d sessions, want %d", len(ss), tc.sessions)
			}
			for _, s := range ss {
				if s.Format != session.FormatOpenAIChat || len(s.Diagnostics) > 0 {
					t.Errorf("format %s, diagnostics %v", s.Format, s.Diagnostics)
				}
				es := s.Main().Entries
				if len(es) != 4 || es[2].Message.Blocks[0].ToolName != "f" || string(es[2].Message.Blocks[0].Arguments) != `{"a":1}` ||
					es[3].Message.Blocks[0].ToolCallID != "c1" {
					t.Errorf("entries %+v", es)
				}
			}
		})
	}
}
