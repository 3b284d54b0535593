package claude

import (
	"strconv"
	"strings"
	"testing"

	"ctxscope/engine/session"
)

// cc builds a transcript line; extra is spliced in as more fields.
func cc(typ, uuid, parent, extra string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"type":"` + typ + `","uuid":"` + uuid + `","parentUuid":` + p +
		`,"isSidechain":false,"sessionId":"s1","version":"2.1.0","cwd":"/w","timestamp":"2026-01-01T00:00:00Z"` + extra + "}"
}

func user(text string) string {
	return `,"message":{"role":"user","content":"` + text + `"}`
}

func asst(id string, out int, blocks string) string {
	return `,"message":{"id":"` + id + `","role":"assistant","model":"claude-x","content":[` + blocks +
		`],"usage":{"input_tokens":5,"output_tokens":` + strconv.Itoa(out) + `,"cache_read_input_tokens":100}}`
}

func importLines(t *testing.T, lines ...string) *session.Session {
	t.Helper()
	s, err := Importer{}.Import(strings.NewReader(strings.Join(lines, "\n")+"\n"), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSplitResponseMerged(t *testing.T) {
	s := importLines(t,
		cc("user", "u1", "", user("hi")),
		cc("assistant", "a1", "u1", asst("msg1", 1, `{"type":"thinking","thinking":"hmm","signature":"x"}`)),
		cc("assistant", "a2", "a1", asst("msg1", 7, `{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}`)),
		cc("assistant", "a3", "a2", asst("msg1", 9, `{"type":"tool_use","id":"t2","name":"Read","input":{}}`)),
		cc("user", "r1", "a3", `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a b"}]}`),
		cc("user", "r2", "r1", `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"x"}],"is_error":true}]}`),
		cc("assistant", "a4", "r2", asst("msg2", 3, `{"type":"text","text":"done"}`)),
	)
	if len(s.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", s.Diagnostics)
	}
	es := s.Main().Entries
	if len(es) != 5 {
		t.Fatalf("%d entries, want 5 (three lines of msg1 merged)", len(es))
	}
	m := es[1].Message
	if len(m.Blocks) != 3 || m.Usage.Output != 9 || m.Usage.CacheRead != 100 {
		t.Errorf("merged response: %d blocks, usage %+v; want 3 blocks, output 9 counted once", len(m.Blocks), *m.Usage)
	}
	if es[2].ParentID != "a1" || es[2].Message.Role != session.RoleTool {
		t.Errorf("tool result parent %q role %s; want the merged entry a1 and role tool", es[2].ParentID, es[2].Message.Role)
	}
	if !es[3].Message.Blocks[0].IsError {
		t.Error("is_error lost")
	}
	if n := len(session.BuildRequests(s.Main())); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	if s.ID != "s1" || s.Version != 2 || s.Agent != "claude-code 2.1.0" {
		t.Errorf("session %q version %d agent %q", s.ID, s.Version, s.Agent)
	}
}

func TestRewindCompactBoundaryAndMetadata(t *testing.T) {
	s := importLines(t,
		`{"type":"file-history-snapshot","messageId":"x","snapshot":{}}`,
		cc("user", "u1", "", user("start")),
		cc("assistant", "a1", "u1", asst("m1", 2, `{"type":"text","text":"ready"}`)),
		cc("user", "b1", "a1", user("first try")),
		cc("assistant", "b1a", "b1", asst("m2", 2, `{"type":"text","text":"one"}`)),
		cc("user", "b2", "a1", user("second try")), // a rewind: a second child of a1
		cc("assistant", "b2a", "b2", asst("m3", 2, `{"type":"text","text":"two"}`)),
		cc("system", "st", "b2a", `,"subtype":"turn_duration","content":"x"`),
		cc("system", "cb", "", `,"subtype":"compact_boundary","logicalParentUuid":"st","compactMetadata":{"trigger":"auto","preTokens":1500}`),
		cc("user", "cs", "cb", user("Summary: a plan.")+`,"isCompactSummary":true`),
		cc("user", "p1", "cs", user("after")),
		cc("assistant", "p1a", "p1", asst("m4", 2, `{"type":"text","text":"final"}`)),
		`{"type":"ai-title","title":"x"}`,
	)
	if len(s.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", s.Diagnostics)
	}
	tr := session.NewTree(s.Main())
	if kids := tr.Children(tr.Index("a1")); len(kids) != 2 {
		t.Errorf("a1 has %d children, want 2 branches", len(kids))
	}
	cb := s.Main().Entries[tr.Index("cb")]
	if cb.Kind != session.EntryCompaction || cb.ParentID != "st" || cb.Compaction.TokensBefore != 1500 {
		t.Errorf("compact boundary %+v", cb)
	}
	reqs := session.BuildRequests(s.Main())
	last := reqs[len(reqs)-1]
	if !last.AfterCompaction || len(last.Input()) != 2 || last.Input()[0].Origin != session.OriginCompactionSummary {
		t.Errorf("request after compaction: %d input messages, after=%v", len(last.Input()), last.AfterCompaction)
	}
	metas := 0
	for _, e := range s.Main().Entries {
		if e.Kind == session.EntryMeta {
			metas++
			if len(e.Raw) == 0 {
				t.Errorf("meta entry at line %d lost its raw record", e.Line)
			}
		}
	}
	if metas != 2 {
		t.Errorf("%d metadata entries, want 2 (the snapshot and the turn duration)", metas)
	}
	if s.Title != "x" {
		t.Errorf("title %q: the ai-title line names the session", s.Title)
	}
}

func TestSubagentFileAndDuplicates(t *testing.T) {
	side := `,"isSidechain":true,"agentId":"ab12"`
	s := importLines(t,
		strings.Replace(cc("user", "x1", "", user("survey")+side), `"isSidechain":false,`, "", 1),
		strings.Replace(cc("assistant", "x2", "x1", asst("m9", 2, `{"type":"text","text":"ok"}`)+side), `"isSidechain":false,`, "", 1),
		strings.Replace(cc("assistant", "x2", "x1", asst("m9", 2, `{"type":"text","text":"ok"}`)+side), `"isSidechain":false,`, "", 1),
	)
	m := s.Main()
	if m.Kind != session.ThreadSubagent || m.ID != "agent-ab12" || m.ParentID != "s1" || s.ID != "s1/agent-ab12" {
		t.Errorf("thread %s %s parent %s, session %s", m.Kind, m.ID, m.ParentID, s.ID)
	}
	if len(m.Entries) != 2 || len(s.Diagnostics) != 1 || s.Diagnostics[0].Line != 3 {
		t.Errorf("%d entries, diagnostics %v; want 2 and one warning at line 3", len(m.Entries), s.Diagnostics)
	}
}

func TestBadLinesKeepTheRest(t *testing.T) {
	s := importLines(t,
		cc("user", "u1", "", user("hi")),
		`{"type":"user","uuid":"u2",`,
		`{"uuid":"u3"}`,
		cc("user", "u4", "u1", `,"message":{"role":"user","content":[{"type":"mystery"}]}`),
		cc("assistant", "a1", "u4", `,"message":{"role":"assistant","content":7}`),
		cc("user", "u5", "a1", user("still here")),
	)
	if got := len(s.Main().Entries); got != 4 {
		t.Errorf("%d entries, want 4", got)
	}
	wantLines := []int{2, 3, 4, 5}
	if len(s.Diagnostics) != len(wantLines) {
		t.Fatalf("diagnostics %v", s.Diagnostics)
	}
	for i, d := range s.Diagnostics {
		if d.Line != wantLines[i] || d.File != "t.jsonl" {
			t.Errorf("diagnostic %d at %s:%d, want t.jsonl:%d", i, d.File, d.Line, wantLines[i])
		}
	}
	// The unreadable assistant line is kept as metadata, so u5 keeps its parent.
	tr := session.NewTree(s.Main())
	if path := tr.PathTo(tr.Index("u5")); len(path) != 4 {
		t.Errorf("path to u5 has %d entries, want 4", len(path))
	}
}
