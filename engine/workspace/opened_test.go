package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"ctxscope/engine/session"
	"ctxscope/engine/store"
)

// piSession is a pi session of 1,003 entries, in one file of its own.
const piSession = "sessions/pi/agent-sessions__pi-v3-small.jsonl"

// copyShared copies a shared file into a temporary directory, where the
// test may grow it.
func copyShared(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sharedData, name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), filepath.Base(name))
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSessionIsReadOncePerRevision opens a session many times at once and
// again after its file grew: every caller of one revision gets the same
// opened session, a new revision is read anew, and a session the import
// kept is held without reading it back.
func TestSessionIsReadOncePerRevision(t *testing.T) {
	w, _, err := Open(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx := context.Background()
	path := copyShared(t, piSession)
	results, errs := w.ImportUnindexed(ctx, []string{path}, store.KeepDecoded())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	c := results[0].Sessions[0]
	if c.Decoded == nil {
		t.Fatal("the import kept no session")
	}
	held, ok := w.HeldSession(c.Key, c.Revision)
	if !ok || held.Session != c.Decoded {
		t.Fatalf("the session the import decoded is not held (%v)", ok)
	}
	if held.Row.Key != c.Key || held.Revision() != c.Revision || held.Figures.Requests != len(held.Requests) || held.Figures.Requests == 0 {
		t.Fatalf("held %+v with figures %+v", held.Row, held.Figures)
	}

	var wg sync.WaitGroup
	got := make([]*Opened, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = w.Session(ctx, c.Key)
		}()
	}
	wg.Wait()
	for i, o := range got {
		if o != held {
			t.Fatalf("caller %d got another opened session", i)
		}
	}

	// Grown by a copy of its last line: a new revision, read from the store.
	data, _ := os.ReadFile(path)
	lines := splitLines(data)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(lines[len(lines)-1])
	f.Close()
	if _, errs := w.ImportUnindexed(ctx, []string{path}); len(errs) > 0 {
		t.Fatal(errs)
	}
	grown, err := w.Session(ctx, c.Key)
	if err != nil {
		t.Fatal(err)
	}
	if grown == held || grown.Revision() <= held.Revision() || len(grown.Session.Main().Entries) <= len(held.Session.Main().Entries) {
		t.Fatalf("after growth: revision %d (was %d), %d entries", grown.Revision(), held.Revision(), len(grown.Session.Main().Entries))
	}

	if err := w.DeleteSession(ctx, c.Key); err != nil {
		t.Fatal(err)
	}
	if _, ok := w.HeldSession(c.Key, grown.Revision()); ok {
		t.Error("a deleted session is still held")
	}
	if _, err := w.Session(ctx, c.Key); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a deleted session opens: %v", err)
	}
}

// splitLines splits data after each newline.
func splitLines(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		i := 0
		for i < len(data) && data[i] != '\n' {
			i++
		}
		if i < len(data) {
			i++
		}
		out = append(out, data[:i])
		data = data[i:]
	}
	return out
}

// TestStatsAreKeptByRevision works out a session's stats, checks them
// against the opened session, and finds them kept: a second call reads no
// session (the workspace holds none), and a stored figure from another
// revision is worked out again.
func TestStatsAreKeptByRevision(t *testing.T) {
	w, _, err := Open(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx := context.Background()
	results, errs := w.ImportUnindexed(ctx, []string{copyShared(t, piSession)})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	key := results[0].Sessions[0].Key
	if _, ok := w.HeldSession(key, results[0].Sessions[0].Revision); ok {
		t.Fatal("a session imported without KeepDecoded is held")
	}
	st, err := w.Stats(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	o, err := w.read(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := statsOf(o)
	if st != want || st.Requests == 0 || st.Peak == 0 || st.Total < int64(st.Peak) || st.LastActivity.IsZero() {
		t.Fatalf("stats %+v, want %+v", st, want)
	}
	if _, ok := w.HeldSession(key, st.Revision); ok {
		t.Error("a session read for its stats is kept")
	}

	// A stored figure of another revision is not taken for this one.
	stale := st
	stale.Revision, stale.Requests = st.Revision-1, 999999
	if err := w.Store.PutSetting(ctx, statsSetting(key), stale); err != nil {
		t.Fatal(err)
	}
	if again, err := w.Stats(ctx, key); err != nil || again != st {
		t.Fatalf("with a stale figure stored: %+v %v", again, err)
	}
	// A current one is taken as it is.
	current := st
	current.Requests = 999999
	w.Store.PutSetting(ctx, statsSetting(key), current)
	if again, _ := w.Stats(ctx, key); again.Requests != 999999 {
		t.Fatalf("the stored figure of this revision was not used: %+v", again)
	}
}

// TestDerivedOncePerName asks for derived values many times at once: each
// name is worked out once, and names do not share values.
func TestDerivedOncePerName(t *testing.T) {
	o := newOpened(store.SessionInfo{Key: "k", Revision: 1}, &session.Session{Threads: []*session.Thread{{}}})
	var calls atomic.Int32
	count := func(n int) func(*session.Session) int {
		return func(*session.Session) int { calls.Add(1); return n }
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v := Derived(o, "a", count(1)); v != 1 {
				t.Errorf("a = %d", v)
			}
			if v := Derived(o, "b", count(2)); v != 2 {
				t.Errorf("b = %d", v)
			}
		}()
	}
	wg.Wait()
	if n := calls.Load(); n != 2 {
		t.Errorf("worked out %d times, want 2", n)
	}
}
