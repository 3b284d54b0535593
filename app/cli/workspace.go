package cli

import (
	"fmt"
	"io/fs"
	"path/filepath"

	"ctxscope/engine/workspace"
	"ctxscope/search"
)

// openWorkspace opens the workspace chosen with --workspace (or the
// default one) with its search index.
func openWorkspace(env *Env) (*workspace.Workspace, error) {
	w, rebuilt, err := workspace.Open(env.Workspace, env.Store)
	if err != nil {
		return nil, err
	}
	if rebuilt {
		fmt.Fprintln(env.Stderr, "ctxscope: the search index was built by another version; rebuilding it")
	}
	return w, nil
}

// openSharedWorkspace opens the workspace for a command that can do its
// work on the store alone (listing and importing sessions, memory): when a
// running app or `ctxscope serve` holds the search index, the workspace
// opens without it, and that process indexes what changed on its next
// search.
func openSharedWorkspace(env *Env) (*workspace.Workspace, error) {
	w, rebuilt, err := workspace.OpenShared(env.Workspace, env.Store)
	if err != nil {
		return nil, err
	}
	if rebuilt {
		fmt.Fprintln(env.Stderr, "ctxscope: the search index was built by another version; rebuilding it")
	}
	return w, nil
}

// sizes are the bytes a workspace takes on disk.
type sizes struct {
	Database int64 `json:"databaseBytes"` // the store's database (workspace.db after a checkpoint)
	Index    int64 `json:"indexBytes"`    // the search index directory
}

func (s sizes) String() string {
	return fmt.Sprintf("%.2f MB: database %.2f MB, search index %.2f MB",
		float64(s.Database+s.Index)/1e6, float64(s.Database)/1e6, float64(s.Index)/1e6)
}

// workspaceSize measures the workspace's database and search index.
func workspaceSize(ws *workspace.Workspace) (sizes, error) {
	if err := ws.Store.Checkpoint(); err != nil {
		return sizes{}, err
	}
	var s sizes
	var err error
	if s.Database, err = ws.Store.DatabaseBytes(); err != nil {
		return sizes{}, err
	}
	dir := ws.Store.Dir()
	err = filepath.WalkDir(filepath.Join(dir, search.DirName), func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			s.Index += info.Size()
		}
		return err
	})
	return s, err
}
