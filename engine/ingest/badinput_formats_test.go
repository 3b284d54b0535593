package ingest_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

// lineSamples are samples in JSON Lines, one of each such format.
var lineSamples = []string{
	"claude/testdata/samples/kvsankar-real-2.1.152.jsonl",
	"codex/testdata/samples/kvsankar-real-0.135.jsonl",
	"copilot/testdata/samples/agent-sessions-small.jsonl",
	"gemini/testdata/samples/agent-sessions-v040.jsonl",
	"openhands/testdata/samples/software-agent-sdk-goal-events.jsonl",
}

// docSamples are samples that are one JSON document.
var docSamples = []string{
	"gemini/testdata/samples/kvsankar-real.json",
	"minisweagent/testdata/samples/gemini-3-pro-django-16255.traj.json",
}

// diagAt reports whether s has a diagnostic of at least sev on line of
// file name.
func diagAt(s *session.Session, name string, line int, words string) bool {
	for _, d := range s.Diagnostics {
		if d.File == name && d.Line == line && strings.Contains(d.Message, words) {
			return true
		}
	}
	return false
}

// TestBadLinesPerFormat damages one line of each JSON Lines sample in
// three ways; each time the importer names the file and line, and keeps
// what the other lines hold.
func TestBadLinesPerFormat(t *testing.T) {
	for _, path := range lineSamples {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
		whole, err := ingest.Read(bytes.NewReader(data), filepath.Base(path))
		if err != nil {
			t.Fatal(err)
		}
		join := func(ls [][]byte) []byte { return append(bytes.Join(ls, []byte("\n")), '\n') }
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Run("truncated last line", func(t *testing.T) {
				last := lines[len(lines)-1]
				cut := append(join(lines[:len(lines)-1]), last[:len(last)/2]...)
				s, err := ingest.Read(bytes.NewReader(cut), "cut.jsonl")
				if err != nil {
					t.Fatal(err)
				}
				if !diagAt(s, "cut.jsonl", len(lines), "") {
					t.Errorf("diagnostics %v, want one at cut.jsonl:%d", s.Diagnostics, len(lines))
				}
				if entries(s) < entries(whole)-1 {
					t.Errorf("%d entries, want at least %d", entries(s), entries(whole)-1)
				}
			})
			t.Run("record of the wrong shape", func(t *testing.T) {
				damaged := join(append([][]byte{lines[0], []byte(`["not", "a", "record"]`)}, lines[1:]...))
				s, err := ingest.Read(bytes.NewReader(damaged), "shape.jsonl")
				if err != nil {
					t.Fatal(err)
				}
				if !diagAt(s, "shape.jsonl", 2, "") {
					t.Errorf("diagnostics %v, want one at shape.jsonl:2", s.Diagnostics)
				}
				if entries(s) != entries(whole) {
					t.Errorf("%d entries, want the %d of the undamaged file", entries(s), entries(whole))
				}
			})
			t.Run("invalid UTF-8", func(t *testing.T) {
				i := 1 + bytes.Index(lines[1][1:], []byte(`":"`)) + 3 // inside the line's first string value
				bad := append(append(append([]byte{}, lines[1][:i]...), 0xff, 0xfe), lines[1][i:]...)
				damaged := join(append([][]byte{lines[0], bad}, lines[2:]...))
				s, err := ingest.Read(bytes.NewReader(damaged), "utf8.jsonl")
				if err != nil {
					t.Fatal(err)
				}
				if !diagAt(s, "utf8.jsonl", 2, "UTF-8") {
					t.Errorf("diagnostics %v, want one at utf8.jsonl:2 about UTF-8", s.Diagnostics)
				}
				if entries(s) != entries(whole) {
					t.Errorf("%d entries, want the %d of the undamaged file", entries(s), entries(whole))
				}
			})
		})
	}
}

// TestTruncatedDocumentPerFormat cuts each one-document sample in half:
// the import names the line where the document stops and keeps what came
// before it.
func TestTruncatedDocumentPerFormat(t *testing.T) {
	for _, path := range docSamples {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			cut := data[:len(data)/2]
			s, err := ingest.Read(bytes.NewReader(cut), "half.json")
			if err != nil {
				t.Fatal(err)
			}
			cutLine := bytes.Count(cut, []byte("\n")) + 1
			var found bool
			for _, d := range s.Diagnostics {
				found = found || (d.File == "half.json" && d.Severity == session.SeverityError && d.Line > 1 && d.Line <= cutLine)
			}
			if !found {
				t.Errorf("diagnostics %v, want an error at a line up to %d", s.Diagnostics, cutLine)
			}
		})
	}
}
