package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	"ctxscope/engine/store"
	"ctxscope/engine/tail"
)

// EventAppended is emitted when a followed session gained records.
const EventAppended = "session:appended"

// coalesce is how long a live session waits after a new record for more
// before importing: an agent writes a turn as several lines at once.
const coalesce = 15 * time.Millisecond

// Appended is the payload of [EventAppended].
type Appended struct {
	Key      string `json:"key"`
	Requests int    `json:"requests"` // of the main thread, now
	Entries  int    `json:"entries"`
	Revision int    `json:"revision"`
}

// Live is the bound service that follows sessions while agents write
// them: a followed session's file is tailed (engine/tail), and each time
// it gains complete records it is imported again, which appends only the
// new records, and the frontend is told with an [EventAppended] event.
type Live struct {
	app *App

	mu         sync.Mutex
	following  map[string]*follower
	discoverer *discoverer  // nil while discovery is off
	proxy      *proxyRunner // nil while the recording proxy is off
}

// follower tails one session's file.
type follower struct {
	key, path string
	w         *tail.Watcher
	done      chan struct{}
}

func newLive(a *App) *Live { return &Live{app: a, following: map[string]*follower{}} }

// Follow starts following a session's source file. Following a session
// already followed does nothing.
func (l *Live) Follow(ctx context.Context, key string) error {
	l.app.called("Live.Follow", key)
	row, err := l.app.ws.Store.Session(ctx, key)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("%w: %q", ErrNotFound, key)
		}
		return err
	}
	if fi, err := os.Stat(row.Source); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("cannot follow %s: its source is not a file that exists", row.Source)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.following[key]; ok {
		return nil
	}
	w, err := tail.New(tail.Options{Poll: 500 * time.Millisecond})
	if err != nil {
		return err
	}
	if err := w.Add(row.Source); err != nil {
		w.Close()
		return err
	}
	f := &follower{key: key, path: row.Source, w: w, done: make(chan struct{})}
	l.following[key] = f
	go l.watch(f.w, f.done, f.key)
	l.app.logf("following %s", key)
	return nil
}

// Unfollow stops following a session; it does nothing for a session not
// followed.
func (l *Live) Unfollow(ctx context.Context, key string) {
	l.app.called("Live.Unfollow", key)
	l.mu.Lock()
	f := l.following[key]
	delete(l.following, key)
	l.mu.Unlock()
	if f != nil {
		f.w.Close()
		<-f.done
	}
}

// Following lists the keys of the followed sessions, sorted.
func (l *Live) Following(ctx context.Context) []string {
	l.app.called("Live.Following")
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, 0, len(l.following))
	for k := range l.following {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (l *Live) isFollowing(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.following[key]
	return ok
}

// close stops discovery, the proxy and every follower.
func (l *Live) close() {
	l.stopDiscovery()
	l.stopProxy()
	for _, k := range l.Following(context.Background()) {
		l.Unfollow(context.Background(), k)
	}
}

// watch imports the files w reports records in, a burst at a time, until
// w closes, then closes done; only is as for importChanged. Files the
// watcher cannot follow (no known format) never report records, so they
// are never imported.
func (l *Live) watch(w *tail.Watcher, done chan struct{}, only string) {
	defer close(done)
	dirty := map[string]bool{}
	var timer <-chan time.Time
	for {
		select {
		case ev, ok := <-w.Events():
			if !ok {
				return
			}
			switch ev.Kind {
			case tail.EventOpened, tail.EventEntry, tail.EventReset:
				dirty[ev.Path] = true
				if timer == nil {
					timer = time.After(coalesce)
				}
			}
		case <-timer:
			timer = nil
			paths := make([]string, 0, len(dirty))
			for p := range dirty {
				paths = append(paths, p)
			}
			clear(dirty)
			sort.Strings(paths)
			l.importChanged(paths, only)
		}
	}
}

// importChanged imports paths again and tells the frontend what changed
// (see announce). With only set, other sessions are left unmentioned.
func (l *Live) importChanged(paths []string, only string) {
	results, errs := l.app.ws.ImportUnindexed(context.Background(), paths)
	l.app.index.request()
	for _, err := range errs {
		l.app.logf("live: %v", err)
	}
	var changes []store.SessionChange
	for _, r := range results {
		for _, c := range r.Sessions {
			if only == "" || c.Key == only {
				changes = append(changes, c)
			}
		}
	}
	l.announce(changes)
}

// announce tells the frontend what imports changed: an [EventAppended]
// for every stored session that grew, and one [EventDiscovered] naming
// the sessions that are new.
func (l *Live) announce(changes []store.SessionChange) {
	var added []string
	for _, c := range changes {
		switch c.Action {
		case store.ActionUnchanged, store.ActionDuplicate:
			continue
		case store.ActionImported:
			added = append(added, c.Key)
			continue
		}
		st, err := l.app.ws.Stats(context.Background(), c.Key)
		if err != nil {
			l.app.logf("live %s: %v", c.Key, err)
			continue
		}
		l.app.platform.Emit(EventAppended, Appended{Key: c.Key, Requests: st.Requests, Entries: c.Entries, Revision: st.Revision})
	}
	if len(added) > 0 {
		l.app.platform.Emit(EventDiscovered, Discovered{Keys: added})
	}
}
