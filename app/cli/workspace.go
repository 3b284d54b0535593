package cli

import (
	"fmt"

	"ctxscope/search"
)

// openWorkspace opens the workspace chosen with --workspace (or the
// default one) with its search index.
func openWorkspace(env *Env) (*search.Workspace, error) {
	w, rebuilt, err := search.OpenWorkspace(env.Workspace)
	if err != nil {
		return nil, err
	}
	if rebuilt {
		fmt.Fprintln(env.Stderr, "ctxscope: the search index was built by another version; rebuilding it")
	}
	return w, nil
}
