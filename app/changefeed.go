package app

import (
	"context"
	"sort"
	"sync"
	"time"

	"ctxscope/engine/store"
)

// EventWorkspaceChanged is emitted when the workspace changed: through
// this app, or through another process that shares it (a second ctxscope
// server on the same PostgreSQL database, a CLI import beside the app).
// Views that list what changed read it again.
const EventWorkspaceChanged = "workspace:changed"

// WorkspaceChanged is the payload of [EventWorkspaceChanged]: the kinds
// of change (sessions, memory, annotations), each once.
type WorkspaceChanged struct {
	Kinds []store.ChangeKind `json:"kinds"`
}

// changePoll is how often the app reads the store's change feed. A change
// made through another server is searchable here after at most this plus
// the indexer's quiet wait (quietBeforeIndexing) and the sync itself.
const changePoll = 250 * time.Millisecond

// changeFeed follows the store's change feed: it keeps the search index
// in step with what other processes write (the indexer syncs it) and
// tells the frontend what changed.
type changeFeed struct {
	app  *App
	last int64
	stop chan struct{}
	done chan struct{}
	once sync.Once
}

// newChangeFeed starts following the feed from its current end.
func newChangeFeed(a *App) (*changeFeed, error) {
	last, err := a.ws.Store.LastChange(context.Background())
	if err != nil {
		return nil, err
	}
	f := &changeFeed{app: a, last: last, stop: make(chan struct{}), done: make(chan struct{})}
	go f.run()
	return f, nil
}

func (f *changeFeed) run() {
	defer close(f.done)
	t := time.NewTicker(changePoll)
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-t.C:
			if err := f.poll(context.Background()); err != nil {
				f.app.logf("change feed: %v", err)
			}
		}
	}
}

// poll reads the changes since the last one seen and acts on them. When
// the feed no longer holds all of them, everything counts as changed.
func (f *changeFeed) poll(ctx context.Context) error {
	changes, complete, err := f.app.ws.Store.ChangesSince(ctx, f.last)
	if err != nil || (complete && len(changes) == 0) {
		return err
	}
	kinds := map[store.ChangeKind]bool{}
	for _, c := range changes {
		kinds[c.Kind] = true
		f.last = c.ID
	}
	if !complete {
		kinds = map[store.ChangeKind]bool{store.ChangeSessions: true, store.ChangeMemory: true, store.ChangeAnnotations: true}
	}
	if kinds[store.ChangeSessions] || kinds[store.ChangeMemory] {
		f.app.index.request()
	}
	ev := WorkspaceChanged{}
	for k := range kinds {
		ev.Kinds = append(ev.Kinds, k)
	}
	sort.Slice(ev.Kinds, func(i, j int) bool { return ev.Kinds[i] < ev.Kinds[j] })
	f.app.platform.Emit(EventWorkspaceChanged, ev)
	return nil
}

// close stops following the feed.
func (f *changeFeed) close() {
	f.once.Do(func() {
		close(f.stop)
		<-f.done
	})
}
