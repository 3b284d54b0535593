package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// TestChangeFeed checks that each kind of write adds its change, that an
// import that finds the file unchanged adds none, and that a reader gets
// exactly what came after the id it saw.
func TestChangeFeed(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	start, err := s.LastChange(ctx)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl")
	key := mustImport(t, s, path).Sessions[0].Key
	mustImport(t, s, path) // unchanged: no change
	// Writes through the seam the memory tables use: one that changed
	// something, and one that did not (no change).
	for _, changed := range []bool{true, false} {
		if err := s.Write(ctx, ChangeMemory, func(tx *sql.Tx) (bool, error) {
			_, err := tx.Exec(`INSERT INTO memory_sets (name, kind, created_at) VALUES (?,?,?) ON CONFLICT DO NOTHING`, "m", "session", "")
			return changed, err
		}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.PutAnnotation(ctx, Annotation{Scope: "m", Question: "q", Item: "i", Annotator: "a"}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutSetting(ctx, "x", 1); err != nil { // settings are not in the feed
		t.Fatal(err)
	}
	if err := s.DeleteSession(ctx, key); err != nil {
		t.Fatal(err)
	}
	got, complete, err := s.ChangesSince(ctx, start)
	if err != nil || !complete {
		t.Fatalf("changes since %d: complete %v, %v", start, complete, err)
	}
	want := []ChangeKind{ChangeSessions, ChangeMemory, ChangeAnnotations, ChangeSessions}
	if len(got) != len(want) {
		t.Fatalf("%d changes %+v, want %v", len(got), got, want)
	}
	for i, c := range got {
		if c.Kind != want[i] || c.At.IsZero() {
			t.Errorf("change %d: %+v, want kind %s and a time", i, c, want[i])
		}
	}
	rest, complete, err := s.ChangesSince(ctx, got[1].ID)
	if err != nil || !complete || len(rest) != 2 || rest[0].ID != got[2].ID {
		t.Errorf("changes since the second: %+v, complete %v, %v", rest, complete, err)
	}
	last, _ := s.LastChange(ctx)
	if last != got[3].ID {
		t.Errorf("last change %d, want %d", last, got[3].ID)
	}
}

// TestChangeFeedTrimmed checks that a reader that fell behind the changes
// the feed keeps is told it missed some.
func TestChangeFeedTrimmed(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	for range keepChanges + 100 {
		if _, err := s.PutAnnotation(ctx, Annotation{Scope: "m", Question: "q", Item: "i", Annotator: "a"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, complete, err := s.ChangesSince(ctx, 5); err != nil || complete {
		t.Errorf("a reader at change 5 of %d: complete %v, %v; want incomplete", keepChanges+100, complete, err)
	}
	last, _ := s.LastChange(ctx)
	if _, complete, err := s.ChangesSince(ctx, last-10); err != nil || !complete {
		t.Errorf("a reader 10 behind: complete %v, %v", complete, err)
	}
}
