// Package workspace is what the app and the CLI open: the store of
// imported sessions with the search index that follows it. It joins the
// two and owns their order: every change to the store that it makes
// brings the index up to date (or, for an import that must show first,
// leaves the index to the caller's sync). It owns the sessions read into
// memory too: each is read once per stored revision and shared by every
// view of it ([Workspace.Session]), and its figures are kept by revision
// ([Workspace.Stats]).
package workspace

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"sync"

	"ctxscope/engine/ingest"
	"ctxscope/engine/revcache"
	"ctxscope/engine/session"
	"ctxscope/engine/store"
	"ctxscope/search"
)

// Workspace is a store with its search index: the services the CLI and
// the app call. Every method that changes the store brings the index up
// to date before it returns. Its methods are safe for concurrent use.
type Workspace struct {
	Store *store.Store
	// Index is nil in a workspace opened with [OpenShared] whose
	// index another process holds.
	Index *search.Index
	held  *search.InUseError
	// opened are the sessions read into memory, by key, as of their
	// stored revision (see [Workspace.Session]).
	opened *revcache.Cache[*Opened]

	closeOnce sync.Once
	closeErr  error
}

// Open opens the workspace in dir ("" for [store.DefaultDir])
// and its index. The store is the SQLite database in dir, or the
// PostgreSQL database named by database when it is not "" (see
// [store.OpenLocation]); the index is in dir either way. Rebuilt reports
// an index that was rebuilt because its mapping changed; the next sync
// refills it.
func Open(dir, database string) (w *Workspace, rebuilt bool, err error) {
	st, err := store.OpenLocation(context.Background(), dir, database)
	if err != nil {
		return nil, false, err
	}
	idx, rebuilt, err := search.Open(filepath.Join(st.Dir(), search.DirName))
	if err != nil {
		st.Close()
		return nil, false, err
	}
	return newWorkspace(st, idx, nil), rebuilt, nil
}

func newWorkspace(st *store.Store, idx *search.Index, held *search.InUseError) *Workspace {
	return &Workspace{Store: st, Index: idx, held: held, opened: revcache.New[*Opened](keepOpen)}
}

// OpenShared opens the workspace in dir as [Open] does,
// except that when another process holds the search index (a running app
// or `ctxscope serve`) it opens the store alone: sessions can still be
// listed, loaded and imported (the holder indexes them on its next
// search), while searching returns the [search.InUseError] that [Workspace.Held]
// also reports.
func OpenShared(dir, database string) (w *Workspace, rebuilt bool, err error) {
	st, err := store.OpenLocation(context.Background(), dir, database)
	if err != nil {
		return nil, false, err
	}
	idx, rebuilt, err := search.Open(filepath.Join(st.Dir(), search.DirName))
	var inUse *search.InUseError
	if errors.As(err, &inUse) {
		return newWorkspace(st, nil, inUse), false, nil
	}
	if err != nil {
		st.Close()
		return nil, false, err
	}
	return newWorkspace(st, idx, nil), rebuilt, nil
}

// Held returns the error that names the process holding the index when
// the workspace was opened without it, and nil otherwise.
func (w *Workspace) Held() error {
	if w.held == nil {
		return nil
	}
	return w.held
}

// syncIfHeld brings the index up to date, when this process holds it.
func (w *Workspace) syncIfHeld(ctx context.Context) error {
	if w.Index == nil {
		return nil
	}
	_, err := w.Sync(ctx)
	return err
}

// SkippedError reports a file found by expanding a directory or glob that
// is not a session file (a README, say). It is not a failure.
type SkippedError struct {
	Path string
	Err  error
}

func (e *SkippedError) Error() string { return fmt.Sprintf("skipped %s: %v", e.Path, e.Err) }
func (e *SkippedError) Unwrap() error { return e.Err }

// Import imports each path (a file, or a directory or glob of files),
// then indexes what changed. A file that fails is reported in errs (its
// error names the file) and does not stop the others; results holds the
// files that imported. Files met inside a directory or glob that no
// importer recognises come back as *SkippedError; a file named directly
// that is not a session is an error.
func (w *Workspace) Import(ctx context.Context, paths []string) (results []*store.ImportResult, errs []error) {
	results, errs = w.ImportUnindexed(ctx, paths)
	// What the import decoded is garbage now, but the collector would let
	// the index's reading of the same text grow the heap to twice the
	// import's before it looks, and the memory freed stays the process's:
	// a 200 MB record peaked at 2.6 GB. Collecting and giving the memory
	// back to the system here keeps the index's peak from adding to the
	// import's.
	debug.FreeOSMemory()
	if err := w.syncIfHeld(ctx); err != nil {
		errs = append(errs, err)
	}
	return results, errs
}

// ImportUnindexed imports as [Workspace.Import] does but leaves the index
// behind: the caller syncs it (Search does before it searches). An app
// uses it to show an imported session before its text is indexed. A
// session the import decoded and kept ([store.KeepDecoded]) is held as
// the session opened at the revision stored ([Workspace.Session]).
func (w *Workspace) ImportUnindexed(ctx context.Context, paths []string, opts ...store.ImportOption) (results []*store.ImportResult, errs []error) {
	var files []string
	named := map[string]bool{}
	for _, p := range paths {
		named[filepath.Clean(p)] = true
		expanded, err := ingest.Expand([]string{p})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		files = append(files, expanded...)
	}
	for _, p := range files {
		res, err := w.Store.ImportFile(ctx, p, opts...)
		if err != nil {
			if errors.Is(err, ingest.ErrUnknownFormat) && !named[filepath.Clean(p)] {
				err = &SkippedError{Path: p, Err: ingest.ErrUnknownFormat}
			}
			errs = append(errs, err)
			continue
		}
		for _, c := range res.Sessions {
			if c.Decoded != nil {
				w.hold(ctx, c)
			}
		}
		results = append(results, res)
	}
	return results, errs
}

// DeleteSession deletes a session and its documents.
func (w *Workspace) DeleteSession(ctx context.Context, key string) error {
	if err := w.Store.DeleteSession(ctx, key); err != nil {
		return err
	}
	w.opened.Forget(key, "")
	return w.syncIfHeld(ctx)
}

// Sessions lists a page of sessions, newest first (all when limit <= 0).
func (w *Workspace) Sessions(ctx context.Context, offset, limit int) ([]store.SessionInfo, error) {
	return w.Store.Sessions(ctx, offset, limit)
}

// LoadSession opens a stored session in the normalized model.
func (w *Workspace) LoadSession(key string) (*session.Session, error) {
	return w.Store.Load(key)
}

// Search indexes whatever the store gained (a live tail, another
// process's import), then runs r. Page with r.From and r.Size.
func (w *Workspace) Search(ctx context.Context, r search.Request) (*search.Result, error) {
	if _, err := w.Sync(ctx); err != nil {
		return nil, err
	}
	return w.Index.Search(r)
}

// Sync brings the index up to date with the store.
func (w *Workspace) Sync(ctx context.Context) (search.SyncStats, error) {
	if w.Index == nil {
		return search.SyncStats{}, w.held
	}
	st, err := w.Index.Sync(ctx, w.Store)
	if err != nil {
		return st, fmt.Errorf("update the search index: %w", err)
	}
	return st, nil
}

// Reindex rebuilds the index from the store.
func (w *Workspace) Reindex(ctx context.Context) (search.SyncStats, error) {
	if w.Index == nil {
		return search.SyncStats{}, w.held
	}
	if err := w.Index.Rebuild(); err != nil {
		return search.SyncStats{}, err
	}
	return w.Sync(ctx)
}

// Close closes the index and the store. Closing again does nothing.
func (w *Workspace) Close() error {
	w.closeOnce.Do(func() {
		var ierr error
		if w.Index != nil {
			ierr = w.Index.Close()
		}
		w.closeErr = errors.Join(ierr, w.Store.Close())
	})
	return w.closeErr
}
