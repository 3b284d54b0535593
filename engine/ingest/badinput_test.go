package ingest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

const ccFile = "claude-code/claude-code-viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"

func readCorpus(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dataDir, rel))
	if err != nil {
		t.Fatalf("corpus file missing (testdata/shared/sessions): %v", err)
	}
	return data
}

func entries(s *session.Session) int {
	n := 0
	for _, t := range s.Threads {
		n += len(t.Entries)
	}
	return n
}

// wantDiag fails unless s has exactly one diagnostic, at the given line,
// whose message contains each of words.
func wantDiag(t *testing.T, s *session.Session, line int, words ...string) {
	t.Helper()
	if len(s.Diagnostics) != 1 {
		t.Fatalf("diagnostics %v, want exactly one", s.Diagnostics)
	}
	d := s.Diagnostics[0]
	if d.Line != line || d.File == "" {
		t.Errorf("diagnostic at %s:%d, want line %d", d.File, d.Line, line)
	}
	for _, w := range words {
		if !strings.Contains(d.Message, w) {
			t.Errorf("diagnostic %q does not say %q", d.Message, w)
		}
	}
}

func TestBadInput(t *testing.T) {
	full := readCorpus(t, ccFile)
	lines := bytes.Split(bytes.TrimRight(full, "\n"), []byte("\n"))
	whole, err := ingest.Read(bytes.NewReader(full), "whole.jsonl")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("truncated last line", func(t *testing.T) {
		cut := full[:len(full)-len(lines[len(lines)-1])/2-1]
		s, err := ingest.Read(bytes.NewReader(cut), "cut.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		wantDiag(t, s, len(lines), "truncated last line")
		if entries(s) != entries(whole)-1 {
			t.Errorf("%d entries, want %d", entries(s), entries(whole)-1)
		}
	})

	t.Run("50 MB lines", func(t *testing.T) {
		big := strings.Repeat("x", 50<<20)
		valid := `{"type":"user","uuid":"big","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"` + big + `"}}`
		broken := `{"type":"user","uuid":"bad","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"` + big
		input := string(lines[0]) + "\n" + broken + "\n" + valid + "\n" + string(lines[1]) + "\n"
		s, err := ingest.Read(strings.NewReader(input), "big.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		wantDiag(t, s, 2, "ends early")
		if entries(s) != 3 {
			t.Fatalf("%d entries, want 3", entries(s))
		}
		if got := len(s.Main().Entries[1].Message.Blocks[0].Text); got != 50<<20 {
			t.Errorf("the 50 MB message has %d bytes", got)
		}
	})

	t.Run("invalid UTF-8", func(t *testing.T) {
		bad := bytes.Replace(lines[0], []byte("analyzing"), []byte("anal\xff\xfeyzing"), 1)
		if bytes.Equal(bad, lines[0]) {
			t.Fatal("the test's edit did not apply")
		}
		input := bytes.Join([][]byte{bad, lines[1], lines[2]}, []byte("\n"))
		s, err := ingest.Read(bytes.NewReader(input), "utf8.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		wantDiag(t, s, 1, "invalid UTF-8")
		if entries(s) != 3 || !strings.Contains(s.Main().Entries[0].Message.Blocks[0].Text, "anal\uFFFD\uFFFDyzing") {
			t.Errorf("%d entries; first text %.60q", entries(s), s.Main().Entries[0].Message.Blocks[0].Text)
		}
	})

	t.Run("pretty-printed JSONL", func(t *testing.T) {
		var buf bytes.Buffer
		for _, l := range lines[:5] {
			if err := json.Indent(&buf, l, "", "  "); err != nil {
				t.Fatal(err)
			}
			buf.WriteByte('\n')
		}
		s, err := ingest.Read(&buf, "pretty.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		wantDiag(t, s, 1, "pretty-printed")
		if s.Format != session.FormatClaudeCode || entries(s) != 4 { // lines 3-5 share a response
			t.Errorf("format %s, %d entries; want claude-code and 4", s.Format, entries(s))
		}
	})

	t.Run("binary", func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		data := make([]byte, 1<<20)
		for i := range data {
			data[i] = byte(r.UintN(256))
		}
		_, err := ingest.Read(bytes.NewReader(data), "blob.bin")
		if !errors.Is(err, ingest.ErrUnknownFormat) || !strings.Contains(err.Error(), "blob.bin") {
			t.Errorf("error %v, want ErrUnknownFormat naming the file", err)
		}
	})

	t.Run("empty", func(t *testing.T) {
		_, err := ingest.Read(strings.NewReader(""), "empty.jsonl")
		if !errors.Is(err, ingest.ErrUnknownFormat) || !strings.Contains(err.Error(), "empty") {
			t.Errorf("error %v, want one saying the file is empty", err)
		}
	})
}

// TestTruncatedDocument cuts a JSON document in half: the conversations
// before the cut are imported and the cut is reported at its line.
func TestTruncatedDocument(t *testing.T) {
	full := readCorpus(t, "openai-chat/tau-bench__gpt-4o-airline.json")
	cut := full[:len(full)/2]
	ss, err := ingest.ReadAll(bytes.NewReader(cut), "half.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) < 90 || len(ss) > 110 {
		t.Errorf("%d conversations from half the file, want about 100", len(ss))
	}
	// The diagnostic points into the conversation the cut falls in: after
	// the last message read whole, and not past the cut.
	last, prev := ss[len(ss)-1], ss[len(ss)-2].Main().Entries
	cutLine := bytes.Count(cut, []byte("\n")) + 1
	if len(last.Diagnostics) != 1 || last.Diagnostics[0].Line <= prev[len(prev)-1].Line || last.Diagnostics[0].Line > cutLine {
		t.Errorf("diagnostics of the cut conversation: %v (the cut is on line %d)", last.Diagnostics, cutLine)
	}
	for _, s := range ss[:len(ss)-1] {
		if len(s.Diagnostics) > 0 {
			t.Fatalf("conversation %s before the cut has diagnostics %v", s.ID, s.Diagnostics)
		}
	}
}
