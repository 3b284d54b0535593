package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"ctxscope/engine/store"
	"ctxscope/search"
)

// workspace is an open store and its search index.
type workspace struct {
	st  *store.Store
	idx *search.Index
}

// openWorkspace opens the workspace chosen with --workspace (or the
// default one) and its index. A rebuilt index (its mapping changed) is
// refilled by the next sync.
func openWorkspace(env *Env) (*workspace, error) {
	st, err := store.Open(env.Workspace)
	if err != nil {
		return nil, err
	}
	idx, rebuilt, err := search.Open(filepath.Join(st.Dir(), search.DirName))
	if err != nil {
		st.Close()
		return nil, err
	}
	if rebuilt {
		fmt.Fprintln(env.Stderr, "ctxscope: the search index was built by another version; rebuilding it")
	}
	return &workspace{st: st, idx: idx}, nil
}

// sync brings the index up to date with the store.
func (w *workspace) sync(ctx context.Context) (search.SyncStats, error) {
	st, err := w.idx.Sync(ctx, w.st)
	if err != nil {
		return st, fmt.Errorf("update the search index: %w", err)
	}
	return st, nil
}

func (w *workspace) close() error {
	return errors.Join(w.idx.Close(), w.st.Close())
}
