package cli

import (
	"context"
	"fmt"
)

var reindexCommand = command{
	name:    "reindex",
	summary: "rebuild the search index from the workspace",
	run:     runReindex,
}

func runReindex(env *Env, args []string) error {
	fs := newFlags("reindex", env.Stderr)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError("reindex takes no arguments")
	}
	w, err := openWorkspace(env)
	if err != nil {
		return err
	}
	defer w.Close()
	st, err := w.Reindex(context.Background())
	if err != nil {
		return err
	}
	n, err := w.Index.DocCount()
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "indexed %d sessions and %d memory sets: %d documents\n", st.Sessions, st.Sets, n)
	return nil
}
