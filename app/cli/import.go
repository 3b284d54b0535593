package cli

import (
	"context"
	"errors"
	"fmt"
	"text/tabwriter"

	"ctxscope/engine/store"
	"ctxscope/engine/workspace"
)

var importCommand = command{
	name:    "import",
	args:    "PATH... [--json]",
	summary: "import session files into the workspace (re-importing is a no-op; grown files append)",
	run:     runImport,
}

func runImport(env *Env, args []string) error {
	fs := newFlags("import", env.Stderr)
	asJSON := fs.Bool("json", false, "print the import results as JSON")
	paths, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return usageError("need at least one PATH")
	}
	w, err := openSharedWorkspace(env)
	if err != nil {
		return err
	}
	defer w.Close()
	if held := w.Held(); held != nil {
		fmt.Fprintf(env.Stderr, "ctxscope import: %v\nctxscope import: importing into the store; that process indexes the sessions on its next search\n", held)
	}
	results, errs := w.Import(context.Background(), paths)
	failed := 0
	for _, err := range errs {
		fmt.Fprintf(env.Stderr, "ctxscope import: %v\n", err)
		var skipped *workspace.SkippedError
		if !errors.As(err, &skipped) {
			failed++
		}
	}
	failed += printImportDiagnostics(env, results)
	if results == nil {
		results = []*store.ImportResult{}
	}
	if *asJSON {
		if err := writeJSON(env.Stdout, results); err != nil {
			return err
		}
	} else {
		printImports(env, results)
	}
	if failed > 0 {
		return fmt.Errorf("%d file(s) failed to import", failed)
	}
	return nil
}

// maxImportDiagnostics bounds the diagnostics printed per session.
const maxImportDiagnostics = 20

// printImportDiagnostics prints, as inspect does, what the importer
// reported of each session it read, and returns how many files yielded
// nothing: no session with an entry.
func printImportDiagnostics(env *Env, results []*store.ImportResult) int {
	empty := 0
	for _, r := range results {
		entries := 0
		for _, s := range r.Sessions {
			entries += s.Entries
			for i, d := range s.Diagnostics {
				if i == maxImportDiagnostics {
					fmt.Fprintf(env.Stderr, "  … and %d more (ctxscope inspect %s lists them all)\n", len(s.Diagnostics)-i, r.Path)
					break
				}
				fmt.Fprintf(env.Stderr, "  %s\n", d)
			}
		}
		if entries == 0 {
			fmt.Fprintf(env.Stderr, "ctxscope import: %s: nothing could be read from the file\n", r.Path)
			empty++
		}
	}
	return empty
}

func printImports(env *Env, results []*store.ImportResult) {
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	for _, r := range results {
		for _, s := range r.Sessions {
			fmt.Fprintf(tw, "%s\t%s\t+%d entries (%d stored)\t%s\n", s.Action, s.Key, s.Added, s.Entries, r.Path)
		}
	}
	tw.Flush()
}
