package workspace

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/extract"
	"ctxscope/search"
)

// sharedData is the shared data directory, read in place.
const sharedData = "../../testdata/shared"

func TestWorkspaceServices(t *testing.T) {
	w, rebuilt, err := Open(t.TempDir(), "")
	if err != nil || rebuilt {
		t.Fatalf("open: %v %v", rebuilt, err)
	}
	defer w.Close()
	ctx := context.Background()
	files, _ := filepath.Glob(filepath.Join(sharedData, "sessions/pi/*.jsonl"))
	results, errs := w.Import(ctx, append(files, filepath.Join(sharedData, "nope.jsonl")))
	if len(results) != len(files) || len(errs) != 1 {
		t.Fatalf("import: %d results, errors %v", len(results), errs)
	}
	list, err := w.Sessions(ctx, 1, 1)
	if err != nil || len(list) != 1 {
		t.Fatalf("page of sessions: %+v %v", list, err)
	}
	seen := map[string]bool{}
	var total uint64
	for from := 0; ; from += 7 {
		res, err := w.Search(ctx, search.Request{Query: "compaction", Kind: search.KindMessage, From: from, Size: 7})
		if err != nil {
			t.Fatal(err)
		}
		total = res.Total
		for _, h := range res.Hits {
			if seen[h.ID] {
				t.Fatalf("hit %s on two pages", h.ID)
			}
			seen[h.ID] = true
		}
		if len(res.Hits) < 7 {
			break
		}
	}
	if uint64(len(seen)) != total || total == 0 {
		t.Fatalf("paged through %d hits of %d", len(seen), total)
	}
	key := "ffae836b-9420-4060-ac13-7745215f90ff"
	if ss, err := w.LoadSession(key); err != nil || len(ss.Main().Entries) != 1003 {
		t.Fatalf("load session: %v", err)
	}
	if err := w.DeleteSession(ctx, key); err != nil {
		t.Fatal(err)
	}
	if res, _ := w.Search(ctx, search.Request{Session: key}); res.Total != 0 {
		t.Fatalf("%d documents of a deleted session", res.Total)
	}
	if err := w.Close(); err != nil || w.Close() != nil {
		t.Fatalf("close: %v", err)
	}
}

// TestImportUnindexed stores without indexing; the next search catches
// the index up before it runs.
func TestImportUnindexed(t *testing.T) {
	w, _, err := Open(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx := context.Background()
	file := filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl")
	results, errs := w.ImportUnindexed(ctx, []string{file})
	if len(results) != 1 || len(errs) != 0 {
		t.Fatalf("import: %d results, %v", len(results), errs)
	}
	key := results[0].Sessions[0].Key
	if res, err := w.Index.Search(search.Request{Session: key}); err != nil || res.Total != 0 {
		t.Fatalf("the index already holds %d documents of the session (%v)", res.Total, err)
	}
	res, err := w.Search(ctx, search.Request{Session: key})
	if err != nil || res.Total == 0 {
		t.Fatalf("a search after the import finds %d documents (%v)", res.Total, err)
	}
}

// TestWorkspaceIsPrivate checks that everything a workspace holds after an
// import and a sync is the user's alone: directories 0700, files 0600 or
// stricter, even in a directory an earlier version created open.
func TestWorkspaceIsPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ws")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w, _, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, errs := w.Import(context.Background(), []string{filepath.Join(sharedData, "sessions/pi/pi-cwl__large-session.jsonl")}); len(errs) > 0 {
		t.Fatal(errs)
	}
	check := func() {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				t.Fatal(err)
			}
			info, _ := d.Info()
			mode := info.Mode().Perm()
			if d.IsDir() && mode != 0o700 || !d.IsDir() && mode&0o077 != 0 {
				t.Errorf("%s: mode %v", p, mode)
			}
			return nil
		})
	}
	check()
	w.Close()
	check()
}

// TestMemoryIndexed saves a memory through the workspace, which indexes it
// before it returns, and deletes it, which drops its documents.
func TestMemoryIndexed(t *testing.T) {
	ps := []memory.Passage{
		{ID: "D1:1", Session: 1, Speaker: "Caroline", Text: "I went to a support group yesterday.", Time: time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)},
		{ID: "D1:2", Session: 1, Speaker: "Melanie", Text: "I love pottery.", Time: time.Date(2023, 5, 8, 13, 57, 0, 0, time.UTC)},
	}
	m, err := (&memory.Builder{Extractor: extract.Offline{}}).Build(context.Background(), "tiny", ps)
	if err != nil {
		t.Fatal(err)
	}
	w, _, err := Open(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx := context.Background()
	if err := w.SaveMemory(ctx, m); err != nil {
		t.Fatal(err)
	}
	if res, err := w.Index.Search(search.Request{Set: m.ID}); err != nil || res.Total == 0 {
		t.Fatalf("the saved memory has %d documents (%v)", res.Total, err)
	}
	if got, err := w.LoadMemory(context.Background(), m.ID); err != nil || len(got.Passages) != len(m.Passages) {
		t.Fatalf("load: %v", err)
	}
	if err := w.DeleteMemory(ctx, m.ID); err != nil {
		t.Fatal(err)
	}
	if res, _ := w.Index.Search(search.Request{Set: m.ID}); res.Total != 0 {
		t.Fatalf("%d documents left after delete", res.Total)
	}
}
