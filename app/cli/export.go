package cli

import (
	"fmt"
	"io"
	"os"

	"ctxscope/engine/ingest"
	"ctxscope/engine/ingest/normalized"
)

var exportCommand = command{
	name:    "export",
	args:    "PATH... [-o OUT]",
	summary: "write sessions as normalized JSON Lines (docs/normalized-jsonl.md)",
	run:     runExport,
}

func runExport(env *Env, args []string) error {
	fs := newFlags("export", env.Stderr)
	out := fs.String("o", "", "write to `OUT` instead of standard output")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError("need at least one PATH (a file, a directory or a glob)")
	}
	sessions, failed, err := ingest.ReadPaths(pos)
	if err != nil {
		return err
	}
	for _, f := range failed {
		fmt.Fprintf(env.Stderr, "ctxscope export: skipped %v\n", f)
	}
	if len(sessions) == 0 {
		return fmt.Errorf("no session found in %v", pos)
	}
	var w io.Writer = env.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if err := normalized.Write(w, sessions...); err != nil {
		return err
	}
	if f, ok := w.(*os.File); ok && *out != "" {
		return f.Close()
	}
	return nil
}
