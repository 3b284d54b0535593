package search

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/store"
)

// sharedData is the shared data directory, read in place.
const sharedData = "../testdata/shared"

// sharedSessions lists the shared session files an importer of this build
// recognises.
func sharedSessions(t testing.TB) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join(sharedData, "sessions"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) == "SOURCES.md" {
			return err
		}
		if _, err := ingest.ReadFile(p); errors.Is(err, ingest.ErrUnknownFormat) {
			return nil
		}
		files = append(files, p)
		return nil
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no shared sessions: %v", err)
	}
	sort.Strings(files)
	return files
}

// workspace is a store and its index in a temporary directory.
type workspace struct {
	st  *store.Store
	idx *Index
	dir string
}

func newWorkspace(t testing.TB, files ...string) *workspace {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, f := range files {
		if _, err := st.ImportFile(context.Background(), f); err != nil {
			t.Fatal(err)
		}
	}
	idx, _, err := Open(filepath.Join(dir, DirName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	if _, err := idx.Sync(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	return &workspace{st: st, idx: idx, dir: dir}
}
