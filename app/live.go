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
	discoverer *discoverer // nil while discovery is off
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
func (l *Live) Follow(key string) error {
	l.app.called("Live.Follow", key)
	row, err := l.app.ws.Store.Session(context.Background(), key)
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
	go l.run(f)
	l.app.logf("following %s", key)
	return nil
}

// Unfollow stops following a session; it does nothing for a session not
// followed.
func (l *Live) Unfollow(key string) {
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
func (l *Live) Following() []string {
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

// close stops discovery and every follower.
func (l *Live) close() {
	l.stopDiscovery()
	for _, k := range l.Following() {
		l.Unfollow(k)
	}
}

// run imports the file again after each burst of new records, until the
// watcher closes.
func (l *Live) run(f *follower) {
	defer close(f.done)
	var timer <-chan time.Time
	for {
		select {
		case ev, ok := <-f.w.Events():
			if !ok {
				return
			}
			if ev.Kind == tail.EventEntry || ev.Kind == tail.EventReset {
				if timer == nil {
					timer = time.After(coalesce)
				}
			}
		case <-timer:
			timer = nil
			l.reimport(f)
		}
	}
}

// reimport imports a followed file again and tells the frontend when the
// session changed.
func (l *Live) reimport(f *follower) { l.importChanged([]string{f.path}, f.key) }
