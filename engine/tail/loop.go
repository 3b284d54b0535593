package tail

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// wake asks the loop to poll the pending readers. The caller holds w.mu.
func (w *Watcher) wake() {
	select {
	case w.kick <- struct{}{}:
	default: // a wake-up is already queued
	}
}

// loop polls readers when the file system says they changed, when new
// ones are added, and on the backstop timer. It is the only goroutine that
// touches readers after they are made.
func (w *Watcher) loop() {
	defer close(w.done)
	defer close(w.events)
	defer w.shutdown()
	tick := time.NewTicker(w.opts.Poll)
	defer tick.Stop()
	for {
		select {
		case <-w.stop:
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			w.fsEvent(ev)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			w.send(Event{Kind: EventError, Err: err})
		case <-w.kick:
			w.pollPending()
		case <-tick.C:
			w.pollAll()
		}
	}
}

// fsEvent reacts to one file-system event: a new directory under a root is
// watched, a new file under a root is followed, and a followed file is
// polled.
func (w *Watcher) fsEvent(ev fsnotify.Event) {
	path := filepath.Clean(ev.Name)
	w.mu.Lock()
	r := w.readers[path]
	if r == nil && ev.Has(fsnotify.Create) && w.underRoot(path) && !strings.HasPrefix(filepath.Base(path), ".") {
		if info, err := os.Stat(path); err == nil {
			if info.IsDir() {
				_ = w.addTree(path) // a failure to watch shows up as missed files, caught by nothing: rare
			} else if info.Mode().IsRegular() {
				w.follow(path)
			}
		}
	}
	w.mu.Unlock()
	if r != nil {
		w.poll(r)
	}
	w.pollPending()
}

// underRoot reports whether path lies inside a watched directory. The
// caller holds w.mu.
func (w *Watcher) underRoot(path string) bool {
	for _, root := range w.roots {
		if rel, err := filepath.Rel(root, path); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return true
		}
	}
	return false
}

func (w *Watcher) pollPending() {
	w.mu.Lock()
	paths := w.pending
	w.pending = nil
	w.mu.Unlock()
	for _, p := range paths {
		w.mu.Lock()
		r := w.readers[p]
		w.mu.Unlock()
		if r != nil {
			w.poll(r)
		}
	}
}

func (w *Watcher) pollAll() {
	w.mu.Lock()
	rs := make([]*Reader, 0, len(w.readers))
	for _, r := range w.readers {
		rs = append(rs, r)
	}
	w.mu.Unlock()
	for _, r := range rs {
		w.poll(r)
	}
}

// poll reads what r gained, chunk by chunk, and sends the events.
func (w *Watcher) poll(r *Reader) {
	for {
		evs, err := r.Poll()
		for _, ev := range evs {
			if !w.send(ev) {
				return
			}
		}
		if err != nil {
			w.send(Event{Kind: EventError, Path: r.Path(), Err: err})
			return
		}
		if !r.More() {
			return
		}
	}
}

// send delivers an event unless the watcher is stopping.
func (w *Watcher) send(ev Event) bool {
	select {
	case w.events <- ev:
		return true
	case <-w.stop:
		return false
	}
}

func (w *Watcher) shutdown() {
	w.fsw.Close()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, r := range w.readers {
		r.Close()
	}
}
