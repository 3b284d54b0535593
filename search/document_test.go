package search

import (
	"encoding/json"
	"strings"
	"testing"

	"ctxscope/engine/session"
)

func TestFlattenJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"path":"src/a.ts","oldText":"x","n":3}`, "src/a.ts\nx\n3\n"},
		{`{"edits":[{"old":"a","new":"b"}],"ok":true,"z":null}`, "a\nb\n"},
		{`["x",{"k":{"kk":"deep"}},"y"]`, "x\ndeep\ny\n"},
		{`not json`, "not json"},
		{``, ""},
	}
	for _, tc := range tests {
		if got := flattenJSON(json.RawMessage(tc.in)); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzFlattenJSON checks that flattening never panics and keeps every
// string value of valid JSON.
func FuzzFlattenJSON(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, `[1,"x",{"y":["z"]}]`, `{"command":"grep -rn \"x\" src/"}`, `"s"`, `{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := flattenJSON(json.RawMessage(in))
		var v any
		if json.Unmarshal([]byte(in), &v) != nil {
			return
		}
		var check func(any)
		check = func(v any) {
			switch x := v.(type) {
			case string:
				if !strings.Contains(out, x) {
					t.Fatalf("%s: value %q missing from %q", in, x, out)
				}
			case []any:
				for _, e := range x {
					check(e)
				}
			case map[string]any:
				for _, e := range x {
					check(e)
				}
			}
		}
		check(v)
	})
}

// TestEntryDocsOfSections checks that a tool schema and a block of
// injected context are documents of their own kinds, apart from the text
// the system prompt and the user wrote.
func TestEntryDocsOfSections(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *session.Message
		want []string // kind:text of each document
	}{
		{"a request's shape", &session.Message{Role: session.RoleSystem, Blocks: []session.Block{
			{Type: session.BlockText, Text: "You are an agent."},
			{Type: session.BlockText, ToolName: "Read", Text: `{"name":"Read"}`},
			{Type: session.BlockText, Text: "Be brief."},
		}}, []string{`tool_schema:{"name":"Read"}`, "message:You are an agent.\nBe brief."}},
		{"a prompt after a reminder", &session.Message{Role: session.RoleUser, Blocks: []session.Block{
			{Type: session.BlockText, Text: "<system-reminder>today</system-reminder>"},
			{Type: session.BlockText, Text: "Fix it."},
		}}, []string{"injected:<system-reminder>today</system-reminder>", "message:Fix it."}},
	} {
		var got []string
		for _, d := range EntryDocs("s", 0, "main", 0, &session.Entry{ID: "e", Message: tc.m}) {
			got = append(got, d.Kind+":"+d.Text)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: documents %q, want %q", tc.name, got, tc.want)
		}
	}
}
