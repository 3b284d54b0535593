package app

import (
	"context"
	"os"
	"path/filepath"
	"time"

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
	// Known are the directories and files looked for, relative to Home.
	Known []string `json:"known"`
	// Dirs are the known directories and files that exist: what is
	// watched while discovery is on. Nothing else is ever listed or read.
	Dirs []string `json:"dirs"`
	// Places are the known directories and files with the agent that
	// writes each, and whether it exists here.
	Places []AgentPlace `json:"places"`
}

// AgentPlace is where an agent writes its sessions.
type AgentPlace struct {
	Agent string `json:"agent"`
	// Path is relative to Discovery.Home.
	Path  string `json:"path"`
	Found bool   `json:"found"`
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
func (l *Live) Discovery(ctx context.Context) (Discovery, error) {
	l.app.called("Live.Discovery")
	on, err := l.discoveryOn()
	if err != nil {
		return Discovery{}, err
	}
	return l.discovery(on), nil
}

// discoveryOn reads the workspace's discovery setting (off when unset).
func (l *Live) discoveryOn() (bool, error) {
	var on bool
	_, err := l.app.local.get(discoverySetting, &on)
	return on, err
}

// SetDiscovery turns the watching of the agents' session directories on
// or off, and keeps the choice in the workspace. Turning it on imports
// the sessions already there, in the background.
func (l *Live) SetDiscovery(ctx context.Context, on bool) (Discovery, error) {
	l.app.called("Live.SetDiscovery", on)
	if err := l.app.local.put(discoverySetting, on); err != nil {
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

// discovery describes discovery as it is with the switch at on: the
// known directories and those of them that exist now.
func (l *Live) discovery(on bool) Discovery {
	home := l.app.home
	known := make([]string, 0, len(tail.KnownDirs)+len(tail.KnownFiles))
	for _, d := range append(append([]string{}, tail.KnownDirs...), tail.KnownFiles...) {
		known = append(known, filepath.FromSlash(d))
	}
	dirs := tail.Discover(home)
	if dirs == nil {
		dirs = []string{}
	}
	places := make([]AgentPlace, len(known))
	for i, k := range known {
		places[i] = AgentPlace{Agent: tail.Agents[filepath.ToSlash(k)], Path: k}
		for _, d := range dirs {
			if d == filepath.Join(home, k) {
				places[i].Found = true
			}
		}
	}
	return Discovery{On: on, Home: home, Known: known, Dirs: dirs, Places: places}
}

// resumeDiscovery starts discovery when the workspace has it on.
func (l *Live) resumeDiscovery() {
	on, err := l.discoveryOn()
	if err != nil {
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
	go l.watch(d.w, d.done, "")
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

// userHome returns the user's home directory, or "" when it is unknown.
func userHome() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return home
}
