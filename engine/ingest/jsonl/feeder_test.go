package jsonl_test

import (
	"fmt"
	"strings"
	"testing"

	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/ingest/pi"
	"ctxscope/engine/session"
)

const head = `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z"}`

func msg(id, parent, text string) string {
	return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%q,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":%q,"timestamp":1}}`, id, parent, text)
}

// TestDecode feeds pi's real decoder through Decode and checks what each
// kind of damage costs: only the damaged record, reported at its line.
func TestDecode(t *testing.T) {
	pretty := strings.ReplaceAll(msg("b", "a", "two"), `,"`, ",\n  \"")
	tests := []struct {
		name      string
		in        string
		max       int
		texts     string
		diagLines []int
		words     string
	}{
		{"clean", head + "\n" + msg("a", "", "one") + "\n", 0, "one", nil, ""},
		{"CRLF and blank lines", head + "\r\n\r\n" + msg("a", "", "one") + "\r\n", 0, "one", nil, ""},
		{"truncated last line", head + "\n" + msg("a", "", "one") + "\n" + msg("b", "a", "two")[:40], 0, "one", []int{3}, "truncated"},
		{"broken middle line", head + "\n" + `{"type":"message",` + "\n" + msg("a", "", "one") + "\n", 0, "one", []int{2}, "ends early"},
		{"pretty-printed record", head + "\n" + msg("a", "", "one") + "\n" + pretty + "\n" + msg("c", "b", "three") + "\n", 0, "one two three", []int{3}, "spans lines"},
		{"too long", head + "\n" + msg("a", "", strings.Repeat("x", 500)) + "\n" + msg("b", "", "two") + "\n", 300, "two", []int{2}, "longer than 300"},
		{"never ends", head + "\n" + "{\n" + `"type": "message",` + "\n", 0, "", []int{2}, "never ends"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := jsonl.Decode(strings.NewReader(tc.in), "f.jsonl", pi.Importer{}.NewDecoder("f.jsonl"), tc.max)
			if err != nil {
				t.Fatal(err)
			}
			if got := texts(s); got != tc.texts {
				t.Errorf("texts %q, want %q", got, tc.texts)
			}
			var lines []int
			for _, d := range s.Diagnostics {
				lines = append(lines, d.Line)
				if tc.words != "" && !strings.Contains(d.Message, tc.words) {
					t.Errorf("diagnostic %q does not say %q", d.Message, tc.words)
				}
			}
			if fmt.Sprint(lines) != fmt.Sprint(tc.diagLines) && !(len(lines) == 0 && len(tc.diagLines) == 0) {
				t.Errorf("diagnostics at lines %v, want %v: %v", lines, tc.diagLines, s.Diagnostics)
			}
		})
	}
}

func texts(s *session.Session) string {
	var out []string
	for _, e := range s.Main().Entries {
		if e.Message != nil {
			out = append(out, e.Message.Blocks[0].Text)
		}
	}
	return strings.Join(out, " ")
}
