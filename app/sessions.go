package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"ctxscope/app/demo"
	"ctxscope/engine/debug"
	"ctxscope/engine/session"
	"ctxscope/engine/store"
	"ctxscope/engine/workspace"
)

// Sessions is the bound service for the workspace's sessions: listing,
// importing, opening and deleting them, and reading their timelines. A
// session is named by its workspace key. Opened sessions are kept in
// memory with their derived data, and dropped when the stored session
// changes.
type Sessions struct {
	app     *App
	initial *initialFile // nil when the command line named no file
	// background counts the opens under way that no call waits for (see
	// preopen); the app closes the workspace after them.
	background sync.WaitGroup
}

// threadsOf lists an opened session's threads, worked out on first use:
// the list walks every entry of every thread, and each view of the
// session asks for it.
func threadsOf(o *workspace.Opened) []debug.ThreadInfo {
	return workspace.Derived(o, "threads", debug.Threads)
}

// SessionInfo describes a workspace session.
type SessionInfo struct {
	Key    string         `json:"key"`
	ID     string         `json:"id"` // the source's own session id
	Title  string         `json:"title"`
	Format session.Format `json:"format"`
	Agent  string         `json:"agent"`
	Source string         `json:"source"`
	Bytes  int64          `json:"bytes"` // of the source file
	// SourceSessions is how many sessions the source file holds.
	SourceSessions int       `json:"sourceSessions"`
	Started        time.Time `json:"started"`
	Updated        time.Time `json:"updated"`
	Threads        int       `json:"threads"`
	Entries        int       `json:"entries"`
	Messages       int       `json:"messages"`
	ToolCalls      int       `json:"toolCalls"`
	Requests       int       `json:"requests"`
	Compactions    int       `json:"compactions"`
	Errors         int       `json:"errors"`
	Warnings       int       `json:"warnings"`
	// Diagnostics lists what the importer reported, as "file:line: ..."
	// strings, at most 200. Only Open fills it.
	Diagnostics []string `json:"diagnostics"`
	Demo        bool     `json:"demo"`
	// Peak and Tokens are the largest request input and the sum of all
	// request inputs of the main thread, by the estimator.
	Peak   int   `json:"peak"`
	Tokens int64 `json:"tokens"`
	// Live is true while the session's file is followed.
	Live bool `json:"live"`
	// Seen is how many requests the user has seen; the rest are new.
	Seen int `json:"seen"`
	// LastActivity is the time of the session's latest entry.
	LastActivity time.Time `json:"lastActivity"`
}

func newSessions(a *App, initial string) *Sessions {
	s := &Sessions{app: a}
	if initial != "" {
		s.initial = &initialFile{path: initial}
	}
	return s
}

// demoSetting records that the workspace was given the demo session.
const demoSetting = "demo.seeded"

// seedDemo imports the bundled demo session into a workspace that has
// never had it. The file is written under the workspace so that it can be
// re-imported like any other.
func (s *Sessions) seedDemo(ctx context.Context) error {
	var seeded bool
	if _, err := s.app.ws.Store.Setting(ctx, demoSetting, &seeded); err != nil || seeded {
		return err
	}
	path, err := s.demoPath()
	if err != nil {
		return err
	}
	if _, errs := s.app.ws.Import(ctx, []string{path}); len(errs) > 0 {
		return fmt.Errorf("import the demo session: %w", errors.Join(errs...))
	}
	return s.app.ws.Store.PutSetting(ctx, demoSetting, true)
}

// demoPath writes the demo session into the workspace if needed and
// returns its path.
func (s *Sessions) demoPath() (string, error) {
	path := filepath.Join(s.app.ws.Store.Dir(), "demo", demo.Name)
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, demo.Session) {
		return path, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, demo.Session, 0o600)
}

// List returns the workspace's sessions, most recently started first.
func (s *Sessions) List(ctx context.Context) ([]SessionInfo, error) {
	s.app.called("Sessions.List")
	rows, err := s.app.ws.Sessions(ctx, 0, 0)
	if err != nil {
		return nil, err
	}
	out := make([]SessionInfo, 0, len(rows))
	for _, r := range rows {
		info := s.summary(r)
		if err := s.addStats(ctx, &info); err != nil {
			info.Diagnostics = []string{err.Error()}
		}
		out = append(out, info)
	}
	return out, nil
}

// addStats fills in the cached figures of a session, its live status and
// what the user has seen of it.
func (s *Sessions) addStats(ctx context.Context, info *SessionInfo) error {
	info.Live = s.app.live.isFollowing(info.Key)
	info.Seen = s.seen(info.Key)
	st, err := s.app.ws.Stats(ctx, info.Key)
	if err != nil {
		return err
	}
	info.Requests, info.ToolCalls, info.Compactions = st.Requests, st.ToolCalls, st.Compactions
	info.Errors, info.Warnings, info.Peak, info.Tokens = st.Errors, st.Warnings, st.Peak, st.Total
	info.LastActivity = st.LastActivity
	return nil
}

// summary turns a store row into a SessionInfo, adding what only an
// opened session knows when the workspace holds it.
func (s *Sessions) summary(r store.SessionInfo) SessionInfo {
	if o, ok := s.app.ws.HeldSession(r.Key, r.Revision); ok {
		return withFigures(s.rowInfo(r), o.Figures)
	}
	return s.rowInfo(r)
}

// rowInfo is what a store row tells of a session.
func (s *Sessions) rowInfo(r store.SessionInfo) SessionInfo {
	return SessionInfo{Key: r.Key, ID: r.ID, Title: r.Title, Format: session.Format(r.Format), Agent: r.Agent, Source: r.Source,
		Bytes: r.Bytes, SourceSessions: r.SourceSessions, Started: r.Started, Updated: r.Updated, Threads: r.Threads, Entries: r.Entries, Messages: r.Messages,
		Demo: s.isDemo(r.Source)}
}

func (s *Sessions) isDemo(source string) bool {
	return filepath.Base(source) == demo.Name && filepath.Base(filepath.Dir(source)) == "demo"
}

// Initial opens the session to show first: the file named on the command
// line, else the most recently started session of the workspace. It
// returns an empty SessionInfo for an empty workspace.
func (s *Sessions) Initial(ctx context.Context) (SessionInfo, error) {
	s.app.called("Sessions.Initial")
	if s.initial != nil {
		return s.openInitial()
	}
	rows, err := s.app.ws.Sessions(ctx, 0, 1)
	if err != nil || len(rows) == 0 {
		return SessionInfo{}, err
	}
	return s.openKey(ctx, rows[0].Key)
}

// OpenPath imports the session file at path into the workspace and opens
// its (first) session. Importing an unchanged file again does nothing.
func (s *Sessions) OpenPath(ctx context.Context, path string) (SessionInfo, error) {
	s.app.called("Sessions.OpenPath", path)
	return s.openPath(ctx, path)
}

func (s *Sessions) openPath(ctx context.Context, path string) (SessionInfo, error) {
	if path == "" {
		return SessionInfo{}, fmt.Errorf("no file given")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return SessionInfo{}, err
	}
	// A file's session is opened from what the import decoded, not read
	// back from the store (a 64 MB session took a second to read).
	var keep []store.ImportOption
	if st, err := os.Stat(abs); err == nil && st.Mode().IsRegular() {
		keep = append(keep, store.KeepDecoded())
	}
	keys, failed := s.importFiles(ctx, []string{abs}, keep...)
	if len(failed) > 0 {
		return SessionInfo{}, errors.Join(failed...)
	}
	if len(keys) == 0 {
		return SessionInfo{}, fmt.Errorf("%s holds no session", path)
	}
	// The session opened is read (when the import did not keep it) once,
	// and its stats come from it; the file's other sessions are read for
	// their stats only.
	// Indexing is asked for last: it waits for a quiet moment, which the
	// reading would otherwise seem to be.
	defer s.app.index.request()
	info, err := s.openKey(ctx, keys[0])
	if err != nil {
		return SessionInfo{}, err
	}
	return info, s.computeStats(ctx, keys[1:])
}

// Import imports files, directories or globs into the workspace and
// returns the keys of the sessions they hold. Files that fail are named
// in the error; the others are imported.
func (s *Sessions) Import(ctx context.Context, paths []string) ([]string, error) {
	s.app.called("Sessions.Import", paths)
	return s.importPaths(ctx, paths)
}

func (s *Sessions) importPaths(ctx context.Context, paths []string) ([]string, error) {
	keys, failed := s.importFiles(ctx, paths)
	defer s.app.index.request()
	return keys, errors.Join(append(failed, s.computeStats(ctx, keys))...)
}

// importFiles imports paths and returns the keys of the sessions they
// hold, with what failed: a file that is no session found in a folder is
// skipped, not failed. A session the import kept (store.KeepDecoded) is
// held open by the workspace. The caller asks for their indexing.
func (s *Sessions) importFiles(ctx context.Context, paths []string, opts ...store.ImportOption) ([]string, []error) {
	results, errs := s.app.ws.ImportUnindexed(ctx, paths, opts...)
	var keys []string
	for _, r := range results {
		for _, c := range r.Sessions {
			keys = append(keys, c.Key)
		}
	}
	var failed []error
	for _, err := range errs {
		var skipped *workspace.SkippedError
		if !errors.As(err, &skipped) {
			failed = append(failed, err)
		}
	}
	s.app.logf("imported %d session(s) from %d path(s)", len(keys), len(paths))
	return keys, failed
}

// computeStats works out and records the stats of the sessions keys
// (see workspace.Stats), so that the session list shows them at once.
func (s *Sessions) computeStats(ctx context.Context, keys []string) error {
	var failed []error
	for _, k := range keys {
		if _, err := s.app.ws.Stats(ctx, k); err != nil {
			failed = append(failed, err)
		}
	}
	return errors.Join(failed...)
}

// OpenDialog asks the user for a file with the desktop file dialog, then
// imports and opens it. It returns an empty SessionInfo when the user
// cancels.
func (s *Sessions) OpenDialog(ctx context.Context) (SessionInfo, error) {
	s.app.called("Sessions.OpenDialog")
	path, err := s.app.platform.OpenFileDialog("Open an agent session")
	if err != nil || path == "" {
		return SessionInfo{}, err
	}
	return s.openPath(ctx, path)
}

// OpenDemo opens the bundled demo session, importing it again if it was
// deleted.
func (s *Sessions) OpenDemo(ctx context.Context) (SessionInfo, error) {
	s.app.called("Sessions.OpenDemo")
	path, err := s.demoPath()
	if err != nil {
		return SessionInfo{}, err
	}
	return s.openPath(ctx, path)
}

// Delete removes a session from the workspace.
func (s *Sessions) Delete(ctx context.Context, key string) error {
	s.app.called("Sessions.Delete", key)
	s.app.debugger.forget(key)
	s.app.live.Unfollow(ctx, key)
	return s.app.ws.DeleteSession(ctx, key)
}

// Open loads a stored session and returns its description, diagnostics
// included.
func (s *Sessions) Open(ctx context.Context, key string) (SessionInfo, error) {
	s.app.called("Sessions.Open", key)
	return s.openKey(ctx, key)
}

func (s *Sessions) openKey(ctx context.Context, key string) (SessionInfo, error) {
	o, err := s.get(ctx, key)
	if err != nil {
		return SessionInfo{}, err
	}
	info := s.openedInfo(o)
	if err := s.addStats(ctx, &info); err != nil {
		return SessionInfo{}, err
	}
	return info, nil
}

// get returns the opened session for key (the workspace reads it once per
// stored revision).
func (s *Sessions) get(ctx context.Context, key string) (*workspace.Opened, error) {
	o, err := s.app.ws.Session(ctx, key)
	if err != nil {
		return nil, notFound(key, err)
	}
	return o, nil
}

// notFound turns the store's not-found error for key into the app's.
func notFound(key string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w: %q", ErrNotFound, key)
	}
	return err
}

// openedInfo describes an opened session: its row, with the figures and
// diagnostics only its entries tell.
func (s *Sessions) openedInfo(o *workspace.Opened) SessionInfo {
	info := withFigures(s.rowInfo(o.Row), o.Figures)
	info.Diagnostics = []string{}
	for i, d := range o.Session.Diagnostics {
		if i == 200 {
			break
		}
		info.Diagnostics = append(info.Diagnostics, d.String())
	}
	return info
}

// withFigures is info with the counts an opened session's entries tell.
func withFigures(info SessionInfo, f workspace.Figures) SessionInfo {
	info.ToolCalls, info.Requests, info.Compactions = f.ToolCalls, f.Requests, f.Compactions
	info.Errors, info.Warnings = f.Errors, f.Warnings
	return info
}

// declaresEpisodes reports whether thread i of an opened session may
// declare episodes ([debug.DeclaresEpisodes]), worked out once per thread.
// Every replay whose episode mode is left to Go asks, and the answer for a
// thread that declares none reads every tool result of the thread: at
// paper scale a sixth of the CPU time of a step asked that way.
func declaresEpisodes(o *workspace.Opened, i int) bool {
	return workspace.Derived(o, "declaresEpisodes:"+strconv.Itoa(i), func(sess *session.Session) bool {
		return debug.DeclaresEpisodes(sess, i)
	})
}
