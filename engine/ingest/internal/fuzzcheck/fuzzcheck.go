// Package fuzzcheck seeds the importers' fuzz tests with the real session
// files of the shared corpus and checks the property every importer
// promises: no panic, and every diagnostic names its file and, for errors,
// its line.
package fuzzcheck

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"ctxscope/engine/session"
)

// Corpus is the shared corpus of real session files, seen from a package
// directory under engine/ingest.
const Corpus = "../../../testdata/shared/sessions"

// seedSize bounds a seed: the head of a big file keeps fuzzing fast and
// still exercises the format, and cutting it exercises truncation.
const seedSize = 16 << 10

// Seed adds the head of every file in the corpus sub-directory dir (for
// example "pi") and in the package's own testdata/samples as a seed, and
// the whole file too when it is small.
// A missing corpus fails the test rather than fuzzing without its seeds.
func Seed(f *testing.F, dir string) {
	if _, err := os.Stat(Corpus); err != nil {
		f.Fatalf("the shared corpus is missing (testdata/shared/sessions): %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(Corpus, dir, "*"))
	own, _ := filepath.Glob(filepath.Join("testdata", "samples", "*"))
	files = append(files, own...)
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

// ImportFunc is an importer's Import.
type ImportFunc func(r io.Reader, name string) (*session.Session, error)

// EachFunc is an importer's ImportEach.
type EachFunc func(r io.Reader, name string, fn func(*session.Session) error) error

// OneSession fuzzes an importer of one session a file, seeded from the
// corpus sub-directory dir and reading its input as a file called name:
// reading bytes never fails, whatever they are, and the session passes
// Check.
func OneSession(f *testing.F, dir, name string, importer ImportFunc) {
	Seed(f, dir)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := importer(bytes.NewReader(data), name)
		if err != nil {
			t.Fatalf("a byte slice cannot fail to read: %v", err)
		}
		Check(t, s, false)
	})
}

// Documents fuzzes a whole-document importer seeded from the corpus
// sub-directory dir: every session it yields passes Check (with
// wholeFileErrors as Check takes it), and only a broken zip container
// ("PK" at the start) may fail to import at all.
func Documents(f *testing.F, dir string, each EachFunc, wholeFileErrors bool) {
	Seed(f, dir)
	f.Fuzz(func(t *testing.T, data []byte) {
		err := each(bytes.NewReader(data), "fuzz.json", func(s *session.Session) error {
			Check(t, s, wholeFileErrors)
			return nil
		})
		if err != nil && !bytes.HasPrefix(data, []byte("PK")) {
			t.Fatalf("only a broken container may fail: %v", err)
		}
	})
}
