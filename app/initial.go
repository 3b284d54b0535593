package app

import (
	"context"
	"errors"
	"os"
	"sync"
	"time"
)

// initialFile is the file named on the command line, with what this
// process saw of it when it last imported it. Every page load asks for the
// initial session; a file whose size and modification time are as they
// were at that import is opened by its key, without reading and hashing
// it again (a 64 MB session took 70–140 ms to hash). A file that changed
// since is imported again, which adds what it gained.
type initialFile struct {
	path string
	// opening is held while the file is opened: the page's first ask
	// waits for the open begun at startup (see Sessions.preopen).
	opening sync.Mutex

	mu   sync.Mutex
	size int64
	mod  time.Time
	key  string
}

// unchangedKey returns the key of the session imported from the file when
// the file has not changed since, else "".
func (f *initialFile) unchangedKey() string {
	st, err := os.Stat(f.path)
	if err != nil {
		return ""
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.key == "" || st.Size() != f.size || !st.ModTime().Equal(f.mod) {
		return ""
	}
	return f.key
}

// imported records that the file, as st saw it before the import, holds
// the session key.
func (f *initialFile) imported(st os.FileInfo, key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.size, f.mod, f.key = st.Size(), st.ModTime(), key
}

// openInitial opens the initial file's session: by its key when the file
// is unchanged since this process imported it, else by importing it.
func (s *Sessions) openInitial() (SessionInfo, error) {
	// The open is shared by the startup's and the page's: no caller's end
	// may stop it.
	ctx := context.Background()
	f := s.initial
	f.opening.Lock()
	defer f.opening.Unlock()
	if key := f.unchangedKey(); key != "" {
		info, err := s.openKey(ctx, key)
		if !errors.Is(err, ErrNotFound) {
			return info, err
		}
	}
	st, err := os.Stat(f.path)
	if err != nil {
		return s.openPath(ctx, f.path)
	}
	info, err := s.openPath(ctx, f.path)
	if err == nil {
		f.imported(st, info.Key)
	}
	return info, err
}

// preopen opens the initial file in the background, from startup: the
// page (or the window) loads meanwhile, and its first ask for the initial
// session waits for this open rather than starting it. A failure is
// logged; that ask meets it again, and shows it.
func (s *Sessions) preopen() {
	if s.initial == nil {
		return
	}
	s.background.Add(1)
	go func() {
		defer s.background.Done()
		if _, err := s.openInitial(); err != nil {
			s.app.logf("open %s: %v", s.initial.path, err)
		}
	}()
}
