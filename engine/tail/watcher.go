package tail

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Options configure a [Watcher].
type Options struct {
	// Poll is how often every followed file is checked even without a
	// file-system event, as a backstop; 0 means one second.
	Poll time.Duration
	// MaxRecord bounds a line; 0 means jsonl.DefaultMaxRecord.
	MaxRecord int
	// AutoDiscover adds the usual session directories under Home (see
	// [Discover]) when the watcher starts. Off by default: without it the
	// watcher looks only at the paths it is given.
	AutoDiscover bool
	// Home is the home directory AutoDiscover looks in.
	Home string
	// Buffer is the capacity of the event channel; 0 means 1024.
	Buffer int
}

// Watcher follows session files and directories and sends what they gain
// on its event channel. Its methods are safe for concurrent use.
type Watcher struct {
	opts   Options
	fsw    *fsnotify.Watcher
	events chan Event

	mu      sync.Mutex
	readers map[string]*Reader // followed files by path
	roots   []string           // watched directories, whose new files are followed
	closed  bool
	pending []string // readers not yet polled

	kick chan struct{}
	stop chan struct{}
	done chan struct{}
}

// New starts a watcher. With Options.AutoDiscover it follows the
// directories [Discover] finds under Options.Home.
func New(opts Options) (*Watcher, error) {
	if opts.Poll <= 0 {
		opts.Poll = time.Second
	}
	if opts.Buffer <= 0 {
		opts.Buffer = 1024
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("tail: %w", err)
	}
	w := &Watcher{opts: opts, fsw: fsw, events: make(chan Event, opts.Buffer), readers: map[string]*Reader{},
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	if opts.AutoDiscover {
		for _, dir := range Discover(opts.Home) {
			if err := w.Add(dir); err != nil {
				fsw.Close()
				return nil, err
			}
		}
	}
	go w.loop()
	return w, nil
}

// Events returns the channel events arrive on. It is closed by Close.
func (w *Watcher) Events() <-chan Event { return w.events }

// Add follows path: a file (which need not exist yet), or a directory,
// whose files at any depth are followed, those that appear later too.
// Hidden files and directories are skipped.
func (w *Watcher) Add(path string) error {
	path = filepath.Clean(path)
	info, err := os.Stat(path)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errors.New("tail: watcher closed")
	}
	if err == nil && info.IsDir() {
		w.roots = append(w.roots, path)
		return w.addTree(path)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("tail: %w", err)
	}
	// A file: watch its directory, so that replacement is seen too.
	if err := w.fsw.Add(filepath.Dir(path)); err != nil {
		return fmt.Errorf("tail: watch %s: %w", filepath.Dir(path), err)
	}
	w.follow(path)
	return nil
}

// addTree watches dir and every directory below it, and follows their
// files. The caller holds w.mu.
func (w *Watcher) addTree(dir string) error {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // a directory that vanished or cannot be read
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if err := w.fsw.Add(p); err != nil {
				return fmt.Errorf("tail: watch %s: %w", p, err)
			}
		} else if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	for _, f := range files {
		w.follow(f)
	}
	return err
}

// follow starts a reader for path unless one exists. The caller holds
// w.mu; the first poll happens on the loop goroutine.
func (w *Watcher) follow(path string) {
	if _, ok := w.readers[path]; ok {
		return
	}
	w.readers[path] = Open(path, Position{}, w.opts.MaxRecord)
	w.pending = append(w.pending, path)
	w.wake()
}

// Close stops the watcher, closes its files and the event channel.
func (w *Watcher) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.mu.Unlock()
	close(w.stop)
	<-w.done
	return nil
}
