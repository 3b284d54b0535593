package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"ctxscope/engine/cwl"
	"ctxscope/engine/debug"
)

var sweepCommand = command{
	name:    "sweep",
	args:    "FILE --from A --to B --step S [--policy paper,pi-cwl,none,truncate,compact] [--json]",
	summary: "replay a session across a range of budgets and print the curves",
	run:     runSweep,
}

func runSweep(env *Env, args []string) error {
	fs := newFlags("sweep", env.Stderr)
	from := fs.String("from", "", "smallest budget")
	to := fs.String("to", "", "largest budget")
	step := fs.String("step", "", "budget step")
	policies := fs.String("policy", strings.Join(cwl.Policies, ","), "comma-separated policies")
	asJSON := fs.Bool("json", false, "print the curves as JSON")
	rf := addReplayFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("need exactly one FILE")
	}
	var bounds [3]int
	for i, s := range []*string{from, to, step} {
		if bounds[i], err = parseBudget(*s); err != nil {
			return usageError("--from, --to and --step are required token counts")
		}
	}
	r, _, s, err := rf.prepare(context.Background(), pos[0], debug.Params{})
	if err != nil {
		return err
	}
	warnDiagnostics(env.Stderr, s)
	var pols []string
	for _, p := range strings.Split(*policies, ",") {
		pols = append(pols, strings.TrimSpace(p))
	}
	curves, err := r.Sweep(context.Background(), pols, bounds[0], bounds[1], bounds[2])
	if err != nil {
		return usageError("%v", err)
	}
	if *asJSON {
		return writeJSON(env.Stdout, curves)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\tbudget\tinput\tpeak\tcached\tcost $\tevictions\tover budget\tlook-back\t")
	for _, c := range curves {
		for _, p := range c.Points {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.1f%%\t%.4f\t%d\t%d\t%d\t\n", c.Policy, p.Budget, p.Input, p.Peak, 100*p.CachedRatio, p.Cost, p.Evictions, p.Unreachable, p.LookBack)
		}
	}
	return tw.Flush()
}
