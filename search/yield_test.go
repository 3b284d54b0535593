package search

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// TestBackgroundSyncGivesWay checks that a background sync waits while
// the user is at work, goes on when the user stops or when a search needs
// the index, and stops when its context ends; a foreground sync never
// waits.
func TestBackgroundSyncGivesWay(t *testing.T) {
	pi := filepath.Join(sharedData, "sessions/pi/pi-cwl__large-session.jsonl")
	var atWork atomic.Bool
	// newPending returns a workspace whose index has not seen the session.
	newPending := func(t *testing.T) *workspace {
		w := newWorkspace(t)
		if _, err := w.st.ImportFile(context.Background(), pi); err != nil {
			t.Fatal(err)
		}
		w.idx.YieldTo(atWork.Load)
		return w
	}
	background := func(w *workspace, ctx context.Context) chan error {
		done := make(chan error, 1)
		go func() {
			_, err := w.idx.Sync(InBackground(ctx), w.st)
			done <- err
		}()
		return done
	}
	waiting := func(t *testing.T, done chan error) {
		t.Helper()
		select {
		case err := <-done:
			t.Fatalf("the background sync ran while the user was at work (%v)", err)
		case <-time.After(150 * time.Millisecond):
		}
	}
	finished := func(t *testing.T, done chan error) {
		t.Helper()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the background sync did not go on")
		}
	}

	t.Run("waits while the user is at work", func(t *testing.T) {
		w := newPending(t)
		atWork.Store(true)
		done := background(w, context.Background())
		waiting(t, done)
		if n := docCount(t, w.idx); n != 0 {
			t.Fatalf("%d documents indexed while waiting", n)
		}
		atWork.Store(false)
		finished(t, done)
		if docCount(t, w.idx) == 0 {
			t.Fatal("nothing indexed")
		}
	})
	t.Run("goes on when a search needs the index", func(t *testing.T) {
		w := newPending(t)
		atWork.Store(true)
		done := background(w, context.Background())
		waiting(t, done)
		if _, err := w.idx.Sync(context.Background(), w.st); err != nil {
			t.Fatal(err)
		}
		finished(t, done)
		if docCount(t, w.idx) == 0 {
			t.Fatal("nothing indexed")
		}
	})
	t.Run("stops when its context ends", func(t *testing.T) {
		w := newPending(t)
		atWork.Store(true)
		ctx, cancel := context.WithCancel(context.Background())
		done := background(w, ctx)
		waiting(t, done)
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("want the context's cause, got %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the sync did not stop")
		}
	})
}
