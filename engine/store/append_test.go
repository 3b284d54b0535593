package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"ctxscope/engine/ingest"
)

// writeLines writes the first n lines of src to dst.
func writeLines(t testing.TB, dst string, lines [][]byte, n int) {
	t.Helper()
	if err := os.WriteFile(dst, append(bytes.Join(lines[:n], []byte("\n")), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func splitLines(t testing.TB, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
}

// maxEntryID returns the largest entry row id and the number of entry rows.
func maxEntryID(t testing.TB, s *Store) (int64, int) {
	var id int64
	var n int
	if err := s.read.QueryRow(`SELECT COALESCE(max(id), 0), count(*) FROM entries`).Scan(&id, &n); err != nil {
		t.Fatal(err)
	}
	return id, n
}

// TestAppendIncremental grows a copy of a large session in three steps and
// checks that each import writes only the new entries, leaves the earlier
// rows alone and ends equal to importing the whole file.
func TestAppendIncremental(t *testing.T) {
	lines := splitLines(t, filepath.Join(sharedData, "sessions/pi/pi-cwl__before-compaction.jsonl"))
	live := filepath.Join(t.TempDir(), "live.jsonl")
	s := openTemp(t)
	steps := []int{len(lines) / 3, 2 * len(lines) / 3, len(lines)}
	prevMax, prevN, prevRev := int64(0), 0, -1
	for i, n := range steps {
		writeLines(t, live, lines, n)
		res := mustImport(t, s, live)
		want := ActionImported
		if i > 0 {
			want = ActionAppended
		}
		if res.Action != want || len(res.Sessions) != 1 || res.Sessions[0].Action != want {
			t.Fatalf("step %d: got %+v, want %s", i, res, want)
		}
		maxID, count := maxEntryID(t, s)
		if added := res.Sessions[0].Added; added != count-prevN || added == 0 {
			t.Fatalf("step %d: reported %d added, table grew by %d", i, added, count-prevN)
		}
		var kept int
		s.read.QueryRow(`SELECT count(*) FROM entries WHERE id <= ?`, prevMax).Scan(&kept)
		if kept != prevN {
			t.Fatalf("step %d: %d of the %d earlier entry rows survive", i, kept, prevN)
		}
		key := res.Sessions[0].Key
		rev, err := s.Revision(context.Background(), key)
		info, ierr := s.Session(context.Background(), key)
		if err != nil || ierr != nil || rev != info.Revision || rev <= prevRev {
			t.Fatalf("step %d: revision %d (%v), the session's %d (%v), before %d: want it to grow with each import", i, rev, err, info.Revision, ierr, prevRev)
		}
		prevMax, prevN, prevRev = maxID, count, rev
	}
	if _, err := s.Revision(context.Background(), "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the revision of no session: %v, want ErrNotFound", err)
	}
	want, err := ingest.ReadFile(live)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(want.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := sessionJSON(t, got), sessionJSON(t, want); !bytes.Equal(g, w) {
		t.Fatalf("appended session differs from a whole import:\n%s", firstDiff(g, w))
	}
}

// TestPartialLastLine imports a file whose last line is still being
// written: the line waits for the next import.
func TestPartialLastLine(t *testing.T) {
	lines := splitLines(t, filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl"))
	live := filepath.Join(t.TempDir(), "live.jsonl")
	s := openTemp(t)
	last := lines[len(lines)-1]
	body := append(bytes.Join(lines[:len(lines)-1], []byte("\n")), '\n')
	os.WriteFile(live, append(append([]byte{}, body...), last[:len(last)/2]...), 0o644)
	res := mustImport(t, s, live)
	if res.Bytes != int64(len(body)) {
		t.Fatalf("consumed %d bytes, want %d (the complete lines)", res.Bytes, len(body))
	}
	ss, err := s.Load(res.Sessions[0].Key)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ss.Diagnostics {
		t.Errorf("unexpected diagnostic %s", d)
	}
	os.WriteFile(live, append(append(body, last...), '\n'), 0o644)
	res = mustImport(t, s, live)
	if res.Action != ActionAppended || res.Sessions[0].Added != 1 {
		t.Fatalf("completing the line: got %+v, want one appended entry", res)
	}
}

// TestRewrittenFile replaces a file's content with another session's: the
// stored sessions follow and no orphan blob survives.
func TestRewrittenFile(t *testing.T) {
	s := openTemp(t)
	live := filepath.Join(t.TempDir(), "live.jsonl")
	copyFile(t, filepath.Join(sharedData, "sessions/pi/pi-cwl__large-session.jsonl"), live)
	first := mustImport(t, s, live)
	copyFile(t, filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl"), live)
	res := mustImport(t, s, live)
	if res.Action != ActionReplaced {
		t.Fatalf("got %s, want replaced", res.Action)
	}
	list, err := s.Sessions(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Key == first.Sessions[0].Key {
		t.Fatalf("sessions after rewrite: %+v", list)
	}
	var orphans int
	s.read.QueryRow(`SELECT count(*) FROM blobs WHERE hash NOT IN (SELECT text_blob FROM blocks WHERE text_blob IS NOT NULL
		UNION SELECT arguments_blob FROM blocks WHERE arguments_blob IS NOT NULL)`).Scan(&orphans)
	if orphans != 0 {
		t.Fatalf("%d orphan blobs", orphans)
	}
}

func copyFile(t testing.TB, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDeleteSession removes a session and lets the file come back.
func TestDeleteSession(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	path, _ := filepath.Abs(filepath.Join(sharedData, "sessions/pi/pi-cwl__large-session.jsonl"))
	key := mustImport(t, s, path).Sessions[0].Key
	if err := s.DeleteSession(ctx, key); err != nil {
		t.Fatal(err)
	}
	for table, n := range rowCounts(t, s) {
		if n != 0 && table != "memory_sets" && table != "changes" {
			t.Errorf("%s keeps %d rows after the only session was deleted", table, n)
		}
	}
	if _, err := s.Load(key); err == nil {
		t.Fatal("deleted session still loads")
	}
	if err := s.DeleteSession(ctx, key); err == nil {
		t.Fatal("deleting twice succeeded")
	}
	if res := mustImport(t, s, path); res.Action != ActionImported {
		t.Fatalf("re-import after delete: %s", res.Action)
	}
}
