package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"ctxscope/engine/ingest"
)

// sharedData is the shared data directory, read in place.
const sharedData = "../../testdata/shared"

// sharedSessions returns every file under the shared sessions directory
// whose format an importer of this build recognises; the others are
// logged, so that formats join these tests as their importers land.
func sharedSessions(t testing.TB) []string {
	t.Helper()
	sharedOnce.Do(func() { sharedFiles, sharedErr = findShared(t) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedFiles
}

var (
	sharedOnce  sync.Once
	sharedFiles []string
	sharedErr   error
)

func findShared(t testing.TB) ([]string, error) {
	root := filepath.Join(sharedData, "sessions")
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) == "SOURCES.md" {
			return err
		}
		if _, err := ingest.ReadFile(p); errors.Is(err, ingest.ErrUnknownFormat) {
			t.Logf("no importer yet for %s", p)
			return nil
		}
		abs, err := filepath.Abs(p)
		files = append(files, abs)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("walk %s: %v", root, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no importable session under %s", root)
	}
	sort.Strings(files)
	return files, nil
}

// mustImport imports path and fails the test on error.
func mustImport(t testing.TB, s *Store, path string) *ImportResult {
	t.Helper()
	res, err := s.ImportFile(context.Background(), path)
	if err != nil {
		t.Fatalf("import %s: %v", path, err)
	}
	return res
}

// rowCounts counts the rows of every table.
func rowCounts(t testing.TB, s *Store) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, n := range tableNames(t, s) {
		var c int
		if err := s.read.QueryRow(`SELECT count(*) FROM "` + n + `"`).Scan(&c); err != nil {
			t.Fatal(err)
		}
		out[n] = c
	}
	return out
}
