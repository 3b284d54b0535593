package cli

import (
	"context"
	"ctxscope/engine/store"
	"fmt"
	"text/tabwriter"
)

var sessionsCommand = command{
	name:    "sessions",
	args:    "[--json]",
	summary: "list the sessions in the workspace",
	run:     runSessions,
}

func runSessions(env *Env, args []string) error {
	fs := newFlags("sessions", env.Stderr)
	asJSON := fs.Bool("json", false, "print the sessions as JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError("sessions takes no arguments")
	}
	// Listing needs the store alone, which other processes share.
	st, err := store.OpenLocation(context.Background(), env.Workspace, env.Store)
	if err != nil {
		return err
	}
	defer st.Close()
	list, err := st.Sessions(context.Background(), 0, 0)
	if err != nil {
		return err
	}
	if *asJSON {
		if list == nil {
			return writeJSON(env.Stdout, []any{})
		}
		return writeJSON(env.Stdout, list)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tFORMAT\tSTARTED\tENTRIES\tTITLE")
	for _, s := range list {
		started := "-"
		if !s.Started.IsZero() {
			started = s.Started.Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", s.Key, s.Format, started, s.Entries, oneLine(s.Title, 60))
	}
	return tw.Flush()
}
