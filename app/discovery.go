package app

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"time"

	"ctxscope/engine/store"
	"ctxscope/engine/tail"
)

// EventDiscovered is emitted when watching the agents' session
// directories brought sessions the workspace did not hold.
const EventDiscovered = "sessions:discovered"

// discoverySetting is the workspace setting that keeps discovery on
// across launches.
const discoverySetting = "live.discover"

// Discovery tells whether the app watches the directories where the
// supported agents write their sessions, and which ones.
type Discovery struct {
	On bool `json:"on"`
	// Home is the home directory the directories are looked for in.
	Home string `json:"home"`
	// Known are the directories looked for, relative to Home.
	Known []string `json:"known"`
	// Dirs are the known directories that exist: what is watched while
	// discovery is on. Nothing else is ever listed or read.
	Dirs []string `json:"dirs"`
}

// Discovered is the payload of [EventDiscovered].
type Discovered struct {
	Keys []string `json:"keys"`
}

// discoverer watches the agents' session directories: every session file
// in them, and every one that appears later, is imported and kept up to
// date as the agent writes it.
type discoverer struct {
	w    *tail.Watcher
	done chan struct{}
}

// Discovery returns whether discovery is on and what it watches.
func (l *Live) Discovery() (Discovery, error) {
	l.app.called("Live.Discovery")
	var on bool
	if _, err := l.app.ws.Store.Setting(context.Background(), discoverySetting, &on); err != nil {
		return Discovery{}, err
	}
	return l.discovery(on), nil
}

// SetDiscovery turns the watching of the agents' session directories on
// or off, and keeps the choice in the workspace. Turning it on imports
// the sessions already there, in the background.
func (l *Live) SetDiscovery(on bool) (Discovery, error) {
	l.app.called("Live.SetDiscovery", on)
	if err := l.app.ws.Store.PutSetting(context.Background(), discoverySetting, on); err != nil {
		return Discovery{}, err
	}
	if on {
		if err := l.startDiscovery(); err != nil {
			return Discovery{}, err
		}
	} else {
		l.stopDiscovery()
	}
	return l.discovery(on), nil
}

func (l *Live) discovery(on bool) Discovery {
	home := l.app.home
	known := make([]string, len(tail.KnownDirs))
	for i, d := range tail.KnownDirs {
		known[i] = filepath.FromSlash(d)
	}
	dirs := tail.Discover(home)
	if dirs == nil {
		dirs = []string{}
	}
	return Discovery{On: on, Home: home, Known: known, Dirs: dirs}
}

// resumeDiscovery starts discovery when the workspace has it on.
func (l *Live) resumeDiscovery() {
	var on bool
	if _, err := l.app.ws.Store.Setting(context.Background(), discoverySetting, &on); err != nil {
		l.app.logf("discovery: %v", err)
		return
	}
	if on {
		if err := l.startDiscovery(); err != nil {
			l.app.logf("discovery: %v", err)
		}
	}
}

// startDiscovery starts watching the known directories that exist; it
// does nothing when discovery already runs.
func (l *Live) startDiscovery() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.discoverer != nil {
		return nil
	}
	w, err := tail.New(tail.Options{Poll: 500 * time.Millisecond, AutoDiscover: true, Home: l.app.home})
	if err != nil {
		return err
	}
	d := &discoverer{w: w, done: make(chan struct{})}
	l.discoverer = d
	go l.runDiscovery(d)
	l.app.logf("discovery: watching %v", tail.Discover(l.app.home))
	return nil
}

// stopDiscovery stops watching; it does nothing when discovery is off.
func (l *Live) stopDiscovery() {
	l.mu.Lock()
	d := l.discoverer
	l.discoverer = nil
	l.mu.Unlock()
	if d != nil {
		d.w.Close()
		<-d.done
	}
}

// runDiscovery imports the files that gained records, a burst at a time,
// until the watcher closes. Files the watcher cannot follow (no known
// format) never produce records, so they are never imported.
func (l *Live) runDiscovery(d *discoverer) {
	defer close(d.done)
	dirty := map[string]bool{}
	var timer <-chan time.Time
	for {
		select {
		case ev, ok := <-d.w.Events():
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
			l.importChanged(paths, "")
		}
	}
}

// importChanged imports paths again and tells the frontend what changed:
// an [EventAppended] for every stored session that grew, and one
// [EventDiscovered] naming the sessions that are new. With only set, other
// sessions are left unmentioned.
func (l *Live) importChanged(paths []string, only string) {
	results, errs := l.app.ws.ImportUnindexed(context.Background(), paths)
	l.app.index.request()
	for _, err := range errs {
		l.app.logf("live: %v", err)
	}
	var added []string
	for _, r := range results {
		for _, c := range r.Sessions {
			if only != "" && c.Key != only {
				continue
			}
			switch c.Action {
			case store.ActionUnchanged, store.ActionDuplicate:
				continue
			case store.ActionImported:
				added = append(added, c.Key)
				continue
			}
			st, err := l.app.sessions.statsOf(c.Key)
			if err != nil {
				l.app.logf("live %s: %v", c.Key, err)
				continue
			}
			l.app.platform.Emit(EventAppended, Appended{Key: c.Key, Requests: st.Requests, Entries: c.Entries, Revision: st.Revision})
		}
	}
	if len(added) > 0 {
		l.app.platform.Emit(EventDiscovered, Discovered{Keys: added})
	}
}

// userHome returns the user's home directory, or "" when it is unknown.
func userHome() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return home
}
