package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"ctxscope/engine/ingest"
	"ctxscope/engine/report"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

var inspectCommand = command{
	name:    "inspect",
	args:    "PATH [--session ID] [--json] [--tokenizer estimate,o200k,cl100k]",
	summary: "summarise a session file: counts, tokens, requests, diagnostics",
	run:     runInspect,
}

func runInspect(env *Env, args []string) error {
	fs := newFlags("inspect", env.Stderr)
	asJSON := fs.Bool("json", false, "print the full report as JSON")
	counters := fs.String("tokenizer", strings.Join(tokens.Names, ","), "comma-separated token counters")
	only := fs.String("session", "", "report on the session with this `ID` of a file that holds several")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("need exactly one PATH (a file, or a directory or glob of one session's files)")
	}
	var ledgers []*tokens.Ledger
	for _, name := range strings.Split(*counters, ",") {
		c, err := tokens.ByName(strings.TrimSpace(name))
		if err != nil {
			return usageError("%v", err)
		}
		ledgers = append(ledgers, tokens.NewLedger(c))
	}
	sessions, err := readSessions(pos[0], env.Stderr)
	if err != nil {
		return err
	}
	if *only != "" {
		if sessions = pick(sessions, *only); len(sessions) == 0 {
			return fmt.Errorf("no session %q in %s", *only, pos[0])
		}
	}
	if len(sessions) > 1 {
		return printSessions(env.Stdout, sessions, *asJSON)
	}
	r := report.Build(sessions[0], ledgers...)
	if *asJSON {
		return writeJSON(env.Stdout, r)
	}
	printReport(env.Stdout, r)
	return nil
}

// readSessions imports every session under path, joining subagent files
// to their sessions; files that fail are reported on stderr.
func readSessions(path string, stderr io.Writer) ([]*session.Session, error) {
	sessions, failed, err := ingest.ReadPaths([]string{path})
	if err != nil {
		return nil, err
	}
	for _, f := range failed {
		if len(sessions) == 0 && len(failed) == 1 {
			return nil, f.Err
		}
		fmt.Fprintf(stderr, "ctxscope: skipped %v\n", f)
	}
	if len(sessions) == 0 {
		return nil, fmt.Errorf("no session found in %s", path)
	}
	return sessions, nil
}

func pick(sessions []*session.Session, id string) []*session.Session {
	for _, s := range sessions {
		if s.ID == id {
			return []*session.Session{s}
		}
	}
	return nil
}

// sessionLine is one row of the listing of a multi-session file.
type sessionLine struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Format      string `json:"format"`
	Threads     int    `json:"threads"`
	Messages    int    `json:"messages"`
	ToolCalls   int    `json:"toolCalls"`
	Requests    int    `json:"requests"`
	Diagnostics int    `json:"diagnostics"`
}

// printSessions lists the sessions of a file that holds several.
func printSessions(w io.Writer, sessions []*session.Session, asJSON bool) error {
	rows := make([]sessionLine, len(sessions))
	for i, s := range sessions {
		r := report.Build(s)
		rows[i] = sessionLine{ID: s.ID, Title: s.Title, Format: string(s.Format), Threads: r.Threads, Messages: r.Messages,
			ToolCalls: r.ToolCalls, Requests: r.Requests, Diagnostics: len(r.Diagnostics)}
	}
	if asJSON {
		return writeJSON(w, rows)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "%d sessions; 'ctxscope inspect PATH --session ID' reports on one\n", len(rows))
	fmt.Fprintln(tw, "id\tmessages\ttool calls\trequests\tdiagnostics\ttitle")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\n", oneLine(r.ID, 60), r.Messages, r.ToolCalls, r.Requests, r.Diagnostics, oneLine(r.Title, 60))
	}
	return tw.Flush()
}

// printReport writes the human-readable summary.
func printReport(w io.Writer, r *report.Report) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", r.File)
	format := string(r.Format)
	if r.Version > 0 {
		format += fmt.Sprintf(" (version %d)", r.Version)
	}
	if r.Agent != "" {
		format += ", " + r.Agent
	}
	fmt.Fprintf(tw, "format\t%s\n", format)
	fmt.Fprintf(tw, "session\t%s\n", oneLine(r.Session, 120))
	if r.Title != "" {
		fmt.Fprintf(tw, "title\t%s\n", oneLine(r.Title, 120))
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
		reported := ""
		if last.Reported > 0 {
			reported = fmt.Sprintf("; calibrated %d; the provider reported %d", last.Calibrated, last.Reported)
		}
		fmt.Fprintf(tw, "last request input\t%s (estimates)%s\n", counts(last.Tokens), reported)
	}
	printUsage(tw, r)
	fmt.Fprintf(tw, "compactions\t%d\n", len(r.Compactions))
	fmt.Fprintf(tw, "episodes\t%d\n", len(r.Episodes))
	fmt.Fprintf(tw, "diagnostics\t%d error(s), %d warning(s)\n", r.Errors, r.Warnings)
	tw.Flush()
	for _, d := range r.Diagnostics {
		fmt.Fprintf(w, "  %s\n", d)
	}
}

// printUsage prints what the provider and the agent reported of the
// session's tokens, with the calibration fitted on it.
func printUsage(tw io.Writer, r *report.Report) {
	if c := r.Calibration; c != nil && c.N > 0 {
		errs := "too few requests to score its online error"
		if c.Scored > 0 {
			errs = fmt.Sprintf("online error median %.1f%%, p95 %.1f%% over %d requests", 100*c.MedianError, 100*c.P95Error, c.Scored)
		}
		fmt.Fprintf(tw, "calibration\treported ≈ %.0f + %.3f × %s (%d reported requests); %s\n", c.Overhead, c.Ratio, c.Counter, c.N, errs)
	}
	if line := inputSourceLine(r); line != "" {
		fmt.Fprintf(tw, "input source\t%s\n", line)
	}
	if r.WithUsage > 0 {
		fmt.Fprintf(tw, "reported usage\t%s, by %d of %d responses\n", usageLine(r.Usage), r.WithUsage, r.Requests)
	} else {
		fmt.Fprintf(tw, "reported usage\tnone: the file records no provider usage\n")
	}
	if rec := r.Recorded; rec != nil {
		extra := ""
		if rec.Calls > 0 {
			extra += fmt.Sprintf(", %d calls", rec.Calls)
		}
		if rec.Context > 0 {
			extra += fmt.Sprintf(", last context %d", rec.Context)
		}
		fmt.Fprintf(tw, "agent's totals\t%s%s (%s)\n", usageLine(rec.Usage), extra, rec.From)
		if more := rec.Usage.Prompt() - r.Usage.Prompt(); more > 0 && r.WithUsage > 0 {
			fmt.Fprintf(tw, "\t%d input tokens more than the responses report: calls the file holds no response for\n", more)
		}
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

// usageLine formats a usage: its input by cache state, its output, and
// its cost when recorded.
func usageLine(u session.Usage) string {
	if u.Prompt() == 0 && u.Output == 0 && u.Cost > 0 {
		return fmt.Sprintf("cost $%.4f recorded (no token counts)", u.Cost)
	}
	out := fmt.Sprintf("input %d (cache read %d, cache write %d), output %d", u.Prompt(), u.CacheRead, u.CacheWrite, u.Output)
	if u.Reasoning > 0 {
		out += fmt.Sprintf(" (reasoning %d)", u.Reasoning)
	}
	if u.Cost > 0 {
		out += fmt.Sprintf(", cost $%.4f recorded", u.Cost)
	}
	return out
}

// inputSourceLine says where the requests' inputs come from and what the
// log lacks of them, as the report's per-request sources do.
func inputSourceLine(r *report.Report) string {
	n := len(r.RequestTokens)
	if n == 0 {
		return ""
	}
	last := r.RequestTokens[n-1]
	lacks := ""
	if r.InputLacks != "" {
		lacks = "; the log lacks " + r.InputLacks
	}
	switch last.Source {
	case report.SourceRequestRecord:
		return "request records: each request as the agent sent it"
	case report.SourceEstimated:
		return fmt.Sprintf("transcript + estimated remainder%s, %d tokens at the last request (from the provider's usage)", lacks, last.Remainder)
	}
	return "transcript" + lacks
}
