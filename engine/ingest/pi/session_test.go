package pi

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"ctxscope/engine/session"
)

const sessions = "../../../testdata/shared/sessions/pi/"

func importFile(t *testing.T, name string) *session.Session {
	t.Helper()
	f, err := os.Open(sessions + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := Importer{}.Import(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tally counts what the acceptance criteria name.
type tally struct {
	byRole      map[session.Role]int
	calls       map[string]int
	thinking    int
	compactions []string // "line:firstKeptID"
	requests    int
}

func count(s *session.Session) tally {
	tl := tally{byRole: map[session.Role]int{}, calls: map[string]int{}}
	for _, e := range s.Main().Entries {
		if e.Compaction != nil {
			tl.compactions = append(tl.compactions, fmt.Sprintf("%d:%s", e.Line, e.Compaction.FirstKeptID))
		}
		if e.Message == nil {
			continue
		}
		tl.byRole[e.Message.Role]++
		for _, b := range e.Message.Blocks {
			switch b.Type {
			case session.BlockToolCall:
				tl.calls[b.ToolName]++
			case session.BlockThinking:
				tl.thinking++
			}
		}
	}
	tl.requests = len(session.BuildRequests(s.Main()))
	return tl
}

func TestImportRealFiles(t *testing.T) {
	tests := []struct {
		file        string
		version     int
		byRole      string
		calls       string
		thinking    int
		compactions string
		requests    int
	}{
		{"pi-cwl__large-session.jsonl", 1, "map[assistant:453 tool:373 user:88]", "map[bash:192 edit:146 read:50 write:3]", 1, "[]", 453},
		// The compactions' firstKeptEntryIndex 293 and 551 index the parsed
		// records (header included), so they name the entries on lines 294
		// and 552.
		{"pi-cwl__before-compaction.jsonl", 1, "map[assistant:484 tool:448 user:58]", "map[bash:206 edit:125 read:107 write:16]", 49, "[360:L294 629:L552]", 484},
		{"agent-sessions__pi-v3-small.jsonl", 3, "map[assistant:2 user:2]", "map[]", 0, "[6:f7c7091e 9:f7c7091e]", 2},
		{"pi-cwl__assistant-message-with-thinking-code.json", 0, "map[assistant:1]", "map[]", 1, "[]", 1},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			s := importFile(t, tc.file)
			if len(s.Diagnostics) != 0 {
				t.Fatalf("diagnostics: %v", s.Diagnostics)
			}
			tl := count(s)
			got := []any{s.Version, fmt.Sprint(tl.byRole), fmt.Sprint(tl.calls), tl.thinking, fmt.Sprint(tl.compactions), tl.requests}
			want := []any{tc.version, tc.byRole, tc.calls, tc.thinking, tc.compactions, tc.requests}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("\n got %v\nwant %v", got, want)
			}
		})
	}
}

func TestBashExecutionAndFirstKeptEntry(t *testing.T) {
	s := importFile(t, "pi-cwl__before-compaction.jsonl")
	bash := 0
	for _, e := range s.Main().Entries {
		if m := e.Message; m != nil && m.Origin == session.OriginBashExecution {
			bash++
			if m.Role != session.RoleUser || len(m.Blocks) != 2 {
				t.Fatalf("line %d: bashExecution as %s with %d blocks", e.Line, m.Role, len(m.Blocks))
			}
		}
	}
	if bash != 3 {
		t.Fatalf("%d bashExecution messages, want 3", bash)
	}
	// The kept entry of the first compaction is the user turn on line 294.
	tr := session.NewTree(s.Main())
	e := s.Main().Entries[tr.Index("L294")]
	if e.Message == nil || e.Message.Role != session.RoleUser {
		t.Fatalf("L294 is %+v", e)
	}
}

func TestMalformedInputIsReportedWithLinesAndTheRestImports(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/x"}`,
		`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"hi","timestamp":1}}`,
		`{"type":"message","id":"b","parentId":"a", this is not json`,
		``,
		`{"type":"mystery","id":"c","parentId":"a","timestamp":"2026-01-01T00:00:02Z"}`,
		`{"type":"message","id":"d","parentId":"a","timestamp":"2026-01-01T00:00:03Z","message":{"role":"robot","content":"?"}}`,
		`{"type":"message","id":"e","parentId":"a","timestamp":"2026-01-01T00:00:04Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}]}}`,
		`{"type":"message","id":"f","parentId":"e","timestamp":"2026-01-01T00:00:05Z","message":{"role":"user","content":"cut off`,
	}, "\n")
	s, err := Importer{}.Import(strings.NewReader(in), "bad.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var diags []string
	for _, d := range s.Diagnostics {
		diags = append(diags, fmt.Sprintf("%d %s", d.Line, d.Severity))
		if !strings.HasPrefix(d.String(), fmt.Sprintf("bad.jsonl:%d: ", d.Line)) {
			t.Errorf("diagnostic without a location: %s", d)
		}
	}
	if got := strings.Join(diags, ", "); got != "3 error, 5 warning, 6 error, 8 error" {
		t.Fatalf("diagnostics %q\n%v", got, s.Diagnostics)
	}
	if !strings.Contains(s.Diagnostics[3].Message, "truncated last line") {
		t.Errorf("last diagnostic should name the truncated line: %s", s.Diagnostics[3])
	}
	var ids []string
	for _, e := range s.Main().Entries {
		ids = append(ids, e.ID)
	}
	if strings.Join(ids, ",") != "a,c,e" {
		t.Fatalf("imported entries %v, want a,c,e", ids)
	}
}

func TestMessageArrayLines(t *testing.T) {
	in := "[\n  {\"role\":\"user\",\"content\":\"a\"},\n  {\"role\":\"bogus\"},\n\n  {\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"b\"}]}\n]\n"
	s, err := Importer{}.Import(strings.NewReader(in), "h.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Diagnostics) != 1 || s.Diagnostics[0].Line != 3 {
		t.Fatalf("diagnostics %v, want one on line 3", s.Diagnostics)
	}
	es := s.Main().Entries
	if len(es) != 2 || es[0].Line != 2 || es[1].Line != 5 || es[1].ParentID != es[0].ID {
		t.Fatalf("entries %+v %+v", es[0], es[1])
	}
}

func TestSniff(t *testing.T) {
	tests := []struct {
		head string
		want bool
	}{
		{`{"type":"session","version":3,"id":"x"}` + "\n", true},
		{`{"type":"message","timestamp":"t","message":{"role":"toolResult"}}`, true},
		{`[{"role":"user","content":"x"},{"role":"toolResult","toolCallId":"c"}]`, true},
		{`{"role":"assistant","content":[],"stopReason":"stop"}`, true},
		{`[{"role":"user","content":"x"},{"role":"tool","tool_call_id":"c"}]`, false}, // OpenAI chat
		{`{"type":"user","uuid":"u","message":{"role":"user"}}`, false},               // Claude Code
		{"", false},
	}
	for _, tc := range tests {
		if got := (Importer{}).Sniff([]byte(tc.head)); got != tc.want {
			t.Errorf("Sniff(%.50q) = %v, want %v", tc.head, got, tc.want)
		}
	}
}

// FuzzImport feeds the importer arbitrary bytes: it must never panic, and
// every diagnostic must carry a location.
func FuzzImport(f *testing.F) {
	for _, name := range []string{"agent-sessions__pi-v3-small.jsonl", "pi-cwl__large-session.jsonl", "pi-cwl__assistant-message-with-thinking-code.json"} {
		data, err := os.ReadFile(sessions + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 6000)])
	}
	f.Add([]byte(`[{"role":"toolResult","content":[{"type":"image"}],"details":{"chunkEvent":{}}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Importer{}.Import(strings.NewReader(string(data)), "fuzz.jsonl")
		if err != nil {
			t.Fatalf("Import returned an error for in-memory input: %v", err)
		}
		for _, d := range s.Diagnostics {
			if d.File != "fuzz.jsonl" || d.Line < 1 || d.Message == "" {
				t.Fatalf("diagnostic without a location: %+v", d)
			}
		}
		session.BuildRequests(s.Main())
	})
}
