package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"ctxscope/engine/ingest"
	"ctxscope/engine/report"
	"ctxscope/engine/tokens"
)

var inspectCommand = command{
	name:    "inspect",
	args:    "FILE [--json] [--tokenizer estimate,o200k,cl100k]",
	summary: "summarise a session file: counts, tokens, requests, diagnostics",
	run:     runInspect,
}

func runInspect(env *Env, args []string) error {
	fs := newFlags("inspect", env.Stderr)
	asJSON := fs.Bool("json", false, "print the full report as JSON")
	counters := fs.String("tokenizer", strings.Join(tokens.Names, ","), "comma-separated token counters")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("need exactly one FILE")
	}
	var ledgers []*tokens.Ledger
	for _, name := range strings.Split(*counters, ",") {
		c, err := tokens.ByName(strings.TrimSpace(name))
		if err != nil {
			return usageError("%v", err)
		}
		ledgers = append(ledgers, tokens.NewLedger(c))
	}
	s, err := ingest.ReadFile(pos[0])
	if err != nil {
		return err
	}
	r := report.Build(s, ledgers...)
	if *asJSON {
		return writeJSON(env.Stdout, r)
	}
	printReport(env.Stdout, r)
	return nil
}

// printReport writes the human-readable summary.
func printReport(w io.Writer, r *report.Report) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", r.File)
	fmt.Fprintf(tw, "format\t%s (version %d), %s\n", r.Format, r.Version, r.Agent)
	fmt.Fprintf(tw, "session\t%s\n", r.Session)
	if r.Title != "" {
		fmt.Fprintf(tw, "title\t%s\n", r.Title)
	}
	fmt.Fprintf(tw, "entries\t%d in %d thread(s): %s\n", r.Entries, r.Threads, counts(r.ByKind))
	fmt.Fprintf(tw, "messages\t%d: %s\n", r.Messages, counts(r.ByRole))
	fmt.Fprintf(tw, "tool calls\t%d: %s\n", r.ToolCalls, counts(r.ToolCallsByName))
	fmt.Fprintf(tw, "without result\t%d\n", r.Unanswered)
	fmt.Fprintf(tw, "thinking blocks\t%d\n", r.ThinkingBlocks)
	fmt.Fprintf(tw, "requests\t%d\n", r.Requests)
	fmt.Fprintf(tw, "tokens\t%s\n", counts(r.Tokens))
	if n := len(r.RequestTokens); n > 0 {
		last := r.RequestTokens[n-1]
		fmt.Fprintf(tw, "last request input\t%s\n", counts(last.Tokens))
	}
	fmt.Fprintf(tw, "compactions\t%d\n", len(r.Compactions))
	fmt.Fprintf(tw, "episodes\t%d\n", len(r.Episodes))
	fmt.Fprintf(tw, "diagnostics\t%d error(s), %d warning(s)\n", r.Errors, r.Warnings)
	tw.Flush()
	for _, d := range r.Diagnostics {
		fmt.Fprintf(w, "  %s\n", d)
	}
}

// counts formats a map as "a 1, b 2", largest first.
func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
