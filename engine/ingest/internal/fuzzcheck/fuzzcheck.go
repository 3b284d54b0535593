// Package fuzzcheck seeds the importers' fuzz tests with the real session
// files of the shared corpus and checks the property every importer
// promises: no panic, and every diagnostic names its file and, for errors,
// its line.
package fuzzcheck

import (
	"os"
	"path/filepath"
	"testing"

	"ctxscope/engine/session"
)

// Corpus is the shared corpus of real session files, seen from a package
// directory under engine/ingest.
const Corpus = "../../../../shared/data/sessions"

// seedSize bounds a seed: the head of a big file keeps fuzzing fast and
// still exercises the format, and cutting it exercises truncation.
const seedSize = 16 << 10

// Seed adds the head of every file in the corpus sub-directory dir (for
// example "pi") as a seed, and the whole file too when it is small.
func Seed(f *testing.F, dir string) {
	files, _ := filepath.Glob(filepath.Join(Corpus, dir, "*"))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		f.Add(data[:min(len(data), seedSize)])
		if len(data) <= 4*seedSize {
			f.Add(data)
		}
	}
}

// Check fails t when a diagnostic of s lacks its file, or an error lacks
// its line, or a thread is nil.
func Check(t *testing.T, s *session.Session, wholeFileErrors bool) {
	t.Helper()
	if s == nil {
		t.Fatal("nil session without an error")
	}
	for _, d := range s.Diagnostics {
		if d.File == "" {
			t.Errorf("diagnostic without a file: %v", d)
		}
		if d.Severity == session.SeverityError && d.Line < 1 && !wholeFileErrors {
			t.Errorf("error without a line: %v", d)
		}
	}
	for _, th := range s.Threads {
		if th == nil {
			t.Fatal("nil thread")
		}
		session.BuildRequests(th) // must not panic on whatever tree the input made
	}
}
