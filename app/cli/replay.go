package cli

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"ctxscope/engine/cwl"
	"ctxscope/engine/debug"
	"ctxscope/engine/ingest"
	"ctxscope/engine/inputfile"
	"ctxscope/engine/recall"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

var replayCommand = command{
	name:    "replay",
	args:    "FILE [--budget N] [--policy paper|pi-cwl|none|truncate|compact] [--tokenizer auto|calibrated|estimate|o200k|cl100k] [--episodes auto|declared|inferred] [--thread ID] [--json] [--detail] [--memory B]",
	summary: "replay CWL eviction over every LLM request of a session",
	run:     runReplay,
}

// replayFlags are the flags replay and sweep share.
type replayFlags struct {
	tokenizer, episodes, tools, prices, thread *string
	summary                                    *int
	keepRecent                                 *int
}

func addReplayFlags(fs interface {
	String(name, value, usage string) *string
	Int(name string, value int, usage string) *int
}) replayFlags {
	return replayFlags{
		tokenizer:  fs.String("tokenizer", "auto", "token counter: estimate, o200k, cl100k, calibrated (the provider's tokens, fitted online on the usage the session reports), or auto (calibrated when the session reports usage, else estimate)"),
		episodes:   fs.String("episodes", "auto", "episodes: declared (delimiter calls), inferred (from tool use), or auto (declared when the thread has delimiter calls)"),
		thread:     fs.String("thread", "", "replay this thread (an id `inspect` lists, or its index) instead of the main one"),
		tools:      fs.String("tools", "", "JSON file of tool names to classes (search, read, shell, edit, durable) overriding the built-in table"),
		prices:     fs.String("prices", "", `JSON price table in $ per million tokens, e.g. {"input":3,"cacheWrite":3.75,"cacheRead":0.3,"output":15}`),
		summary:    fs.Int("summary-tokens", 2000, "compact policy: size of the summary"),
		keepRecent: fs.Int("keep-recent", 0, "compact policy: tokens kept verbatim after a compaction (default a fifth of the budget)"),
	}
}

// prepare reads FILE and prepares the replay of its main thread, or of
// the thread --thread names, as the debugger does: engine/debug resolves
// what the flags leave to it (the counter, the episode mode and, when p
// has none, the budget). p's policy and budget are the caller's.
func (f replayFlags) prepare(ctx context.Context, path string, p debug.Params) (*debug.Replay, debug.Params, *session.Session, error) {
	p.Counter, p.Episodes = *f.tokenizer, *f.episodes
	if p.Counter == "auto" {
		p.Counter = ""
	}
	if p.Episodes == "auto" {
		p.Episodes = ""
	}
	if p.Counter != "" && p.Counter != debug.CounterCalibrated {
		if _, err := tokens.ByName(p.Counter); err != nil {
			return nil, p, nil, usageError("%v (or calibrated, auto)", err)
		}
	}
	opts, err := f.options()
	if err != nil {
		return nil, p, nil, err
	}
	s, err := ingest.ReadFile(path)
	if err != nil {
		return nil, p, nil, err
	}
	if p.Thread, err = pickThread(s, *f.thread); err != nil {
		return nil, p, nil, err
	}
	declares := func() bool { return debug.DeclaresEpisodes(s, p.Thread) }
	r, p, err := debug.Resolve(ctx, p, declares, func(ctx context.Context, p debug.Params) (*debug.Replay, error) {
		return debug.NewWith(ctx, s, p, nil, opts)
	})
	if err != nil {
		return nil, p, nil, usageError("%s: %v", path, err)
	}
	return r, p, s, nil
}

// options reads the flags the debugger's view does not offer: the tool
// classes, a flat price table and the compact policy's sizes.
func (f replayFlags) options() (debug.Options, error) {
	o := debug.Options{Compact: cwl.CompactOptions{SummaryTokens: *f.summary, KeepRecent: *f.keepRecent}}
	if *f.tools != "" {
		raw, err := inputfile.ReadAll(*f.tools, 0)
		if err != nil {
			return o, err
		}
		o.Tools = cwl.DefaultClassifier()
		if err := o.Tools.Override(raw); err != nil {
			return o, fmt.Errorf("%s: %w", *f.tools, err)
		}
	}
	if *f.prices != "" {
		raw, err := inputfile.ReadAll(*f.prices, 0)
		if err != nil {
			return o, err
		}
		if o.Prices, err = cwl.ParsePrices(raw); err != nil {
			return o, fmt.Errorf("%s: %w", *f.prices, err)
		}
	}
	return o, nil
}

// warnDiagnostics prints what the importer reported about the file, so
// that a replay of a damaged file says so.
func warnDiagnostics(w io.Writer, s *session.Session) {
	const show = 10
	for i, d := range s.Diagnostics {
		if i == show {
			fmt.Fprintf(w, "ctxscope: … and %d more diagnostics ('ctxscope inspect' lists them all)\n", len(s.Diagnostics)-show)
			break
		}
		fmt.Fprintf(w, "ctxscope: %s\n", d)
	}
}

func runReplay(env *Env, args []string) error {
	fs := newFlags("replay", env.Stderr)
	budget := fs.String("budget", "", "token budget τ (20000 or 20k); without it, the debugger's: half the largest uncapped input")
	policy := fs.String("policy", cwl.PolicyPaper, "policy: paper, pi-cwl, none, truncate or compact")
	asJSON := fs.Bool("json", false, "print the whole timeline as JSON")
	detail := fs.Bool("detail", false, "with --json, list the messages and blocks each eviction removed")
	at := fs.Int("at", -1, "print the exact input of request K and its diff from request K-1, as JSON")
	recallBudget := fs.Int("memory", 0, "also read the session's memory from its tool use and measure, under the paper policy, what a recall of this many tokens recovers at each look-back, with the paper+memory variant (500 is the usual B)")
	rf := addReplayFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("need exactly one FILE")
	}
	p := debug.Params{Policy: *policy}
	if *budget != "" {
		if p.Budget, err = parseBudget(*budget); err != nil {
			return err
		}
	}
	r, p, s, err := rf.prepare(context.Background(), pos[0], p)
	if err != nil {
		return err
	}
	warnDiagnostics(env.Stderr, s)
	if *at >= 0 {
		return r.Use(p, func(rep *cwl.Replayer, o cwl.RunOptions) error { return printStep(env.Stdout, rep, o, *at) })
	}
	run, err := replayTimeline(r, p, *detail)
	if err != nil {
		return err
	}
	var variant *recall.Variant
	if *recallBudget > 0 {
		if variant, err = memoryVariant(s, r, p, *recallBudget); err != nil {
			return usageError("--memory: %v", err)
		}
	}
	if *asJSON {
		return writeJSON(env.Stdout, struct {
			File        string               `json:"file"`
			Session     string               `json:"session"`
			Summary     cwl.ReplaySummary    `json:"summary"`
			Episodes    []*cwl.Episodes      `json:"episodes"`
			Timeline    *cwl.Timeline        `json:"timeline"`
			Memory      *recall.Variant      `json:"memory,omitempty"`
			Diagnostics []session.Diagnostic `json:"diagnostics"`
		}{pos[0], s.ID, run.summary, run.episodes, run.timeline, variant, nonNilDiags(run.diags)})
	}
	printReplay(env.Stdout, pos[0], run.summary, run.timeline, run.episodes, run.diags)
	if variant != nil {
		printVariant(env.Stdout, variant)
	}
	return nil
}

// replayed is a replay's run, as the command prints it.
type replayed struct {
	timeline *cwl.Timeline
	summary  cwl.ReplaySummary
	episodes []*cwl.Episodes
	diags    []session.Diagnostic
}

// replayTimeline runs r under p, with what each eviction removed when
// detail is set.
func replayTimeline(r *debug.Replay, p debug.Params, detail bool) (replayed, error) {
	var out replayed
	err := r.Use(p, func(rep *cwl.Replayer, o cwl.RunOptions) error {
		o.Detail = detail
		t, err := rep.Run(o)
		if err != nil {
			return usageError("%v", err)
		}
		out = replayed{timeline: t, summary: rep.Summary(t), episodes: rep.ContextEpisodes(), diags: rep.Diagnostics()}
		return nil
	})
	return out, err
}

func nonNilDiags(d []session.Diagnostic) []session.Diagnostic {
	if d == nil {
		return []session.Diagnostic{}
	}
	return d
}

// parseBudget reads a budget in tokens.
func parseBudget(s string) (int, error) {
	l, err := cwl.ParseLimit(s)
	if err != nil || l.Percent {
		return 0, usageError("invalid budget %q: want tokens such as 20000 or 20k", s)
	}
	return cwl.Threshold(0, l), nil
}

// lastUnreachable returns the last request left over budget, or -1.
func lastUnreachable(t *cwl.Timeline) int {
	for k := len(t.Requests) - 1; k >= 0; k-- {
		if t.Requests[k].Unreachable != nil {
			return k
		}
	}
	return -1
}

func printReplay(w io.Writer, file string, s cwl.ReplaySummary, t *cwl.Timeline, eps []*cwl.Episodes, diags []session.Diagnostic) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", file)
	fmt.Fprintf(tw, "policy\t%s, budget %d tokens (%s), %s episodes\n", s.Policy, s.Budget, s.Counter, s.Episodes)
	fmt.Fprintf(tw, "episodes\t%s\n", counts(s.EpisodeKind))
	fmt.Fprintf(tw, "requests\t%d\n", s.Requests)
	fmt.Fprintf(tw, "input tokens\t%d uncapped → %d (peak %d → %d)\n", s.InputBefore, s.InputAfter, s.PeakBefore, s.PeakAfter)
	fmt.Fprintf(tw, "evictions\t%s\n", levels(s.Evictions))
	if s.Restored > 0 {
		fmt.Fprintf(tw, "restored\t%d (evicted episodes back in context)\n", s.Restored)
	}
	fmt.Fprintf(tw, "over budget\t%d request(s)\n", s.Unreachable)
	fmt.Fprintf(tw, "cache\t%.1f%% of input read from cache\n", 100*s.CachedRatio)
	fmt.Fprintf(tw, "cost\t%s\n", costLine(t.Cost))
	fmt.Fprintf(tw, "look-back\t%d call(s) made again after eviction removed the earlier one (a read, a search, an inspecting command)\n", s.LookBack)
	fmt.Fprintf(tw, "diagnostics\t%d\n", len(diags))
	tw.Flush()
	if k := lastUnreachable(t); k >= 0 {
		fmt.Fprintf(w, "last request over budget: %d: %s\n", k, t.Requests[k].Unreachable.Describe(eps[t.Requests[k].Context].List))
	}
	for _, d := range diags {
		fmt.Fprintf(w, "  %s\n", d)
	}
}

// levels formats evictions by level in level order.
func levels(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := ""
	for i, k := range keys {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("level %s (%s) %d", k, cwl.LevelNames[k[0]-'0'], m[k])
	}
	return out
}

// printStep writes the step API's view of request k: its exact input and
// the diff from the request before.
func printStep(w io.Writer, r *cwl.Replayer, o cwl.RunOptions, k int) error {
	v, err := r.ContextAt(o, k)
	if err != nil {
		return usageError("--at: %v", err)
	}
	d, err := r.DiffAt(o, k)
	if err != nil {
		return err
	}
	return writeJSON(w, struct {
		Context *cwl.ContextView `json:"context"`
		Diff    *cwl.Diff        `json:"diff"`
	}{v, d})
}

// pickThread returns the index of the thread named by id or index, or of
// the main thread when want is empty.
func pickThread(s *session.Session, want string) (int, error) {
	if len(s.Threads) == 0 {
		return 0, fmt.Errorf("%s: the session has no messages", s.Source)
	}
	ids := make([]string, len(s.Threads))
	for i, t := range s.Threads {
		if (want == "" && t == s.Main()) || t.ID == want || strconv.Itoa(i) == want {
			return i, nil
		}
		ids[i] = fmt.Sprintf("%d=%s", i, t.ID)
	}
	return 0, usageError("no thread %q; the session has %s", want, strings.Join(ids, ", "))
}

// costLine says what a replay costs, priced with which models from where,
// and which models have no price.
func costLine(c cwl.CostSummary) string {
	if c.Priced == 0 {
		return fmt.Sprintf("not priced: no price for %s in %s", strings.Join(c.NoPrice, ", "), c.PriceSource)
	}
	out := fmt.Sprintf("$%.4f", c.Cost)
	if c.ExtraCalls > 0 {
		out += fmt.Sprintf(" (%d summarization calls)", c.ExtraCalls)
	}
	out += fmt.Sprintf(", %d of %d requests priced as %s from %s", c.Priced, c.Requests, strings.Join(c.Models, ", "), c.PriceSource)
	if len(c.NoPrice) > 0 {
		out += "; no price for " + strings.Join(c.NoPrice, ", ")
	}
	return out
}
