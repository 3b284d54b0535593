package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/eval"
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/memory/mwimport"
	"ctxscope/engine/memory/retrieve"
	"ctxscope/search/lexical"
)

// evalRow is one configuration's summary over one split.
type evalRow struct {
	Name    string       `json:"name"`
	Kind    string       `json:"kind"`
	Budget  int          `json:"budget,omitempty"`
	Summary eval.Summary `json:"summary"`
}

// evalSplit is the evaluation over one set of conversations.
type evalSplit struct {
	Name        string            `json:"name"`
	Samples     []int             `json:"samples"`
	Rows        []evalRow         `json:"rows"`
	Comparisons []eval.Comparison `json:"comparisons"`
}

// evalReport is what `memory eval --json` prints.
type evalReport struct {
	Source string         `json:"source"`
	Knobs  retrieve.Knobs `json:"knobs"`
	Splits []evalSplit    `json:"splits"`
	// Workspace is the size of the workspace holding the built
	// memories: the database and the search index.
	Workspace *sizes  `json:"workspace,omitempty"`
	BuildMs   []int64 `json:"buildMs,omitempty"`
}

func runMemoryEval(env *Env, args []string) error {
	fs := newFlags("memory eval", env.Stderr)
	path := fs.String("locomo", "", "LoCoMo file (locomo10.json)")
	source := fs.String("source", "built", "built (offline memories from the workspace, built when missing) or imported (MemWeaver's exported graphs)")
	kgDir := fs.String("kg-dir", "", "directory of kg_sample_N.json and clusters_sample_N.json (default: memweaver-kg beside the LoCoMo file's directory)")
	tuneOn := fs.String("tune-on", "0-4", "conversations the knobs were chosen on (reported as their own split)")
	reportOn := fs.String("report-on", "5-9", "held-out conversations the headline is reported on")
	budgets := fs.String("budgets", "100,250,500,1000", "context budgets in tokens, comma-separated")
	ablate := fs.Bool("ablations", true, "also score the memory with each of its parts off, at the largest budget")
	compat := fs.Bool("compat", false, "also score the released code's fixed-budget retrieval (a diagnostic row)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	kf := addKnobFlags(fs)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	knobs, err := kf.knobs()
	if err != nil {
		return err
	}
	convs, err := readLoCoMo(*path)
	if err != nil {
		return err
	}
	tune, report, err := tuningSplits(*tuneOn, *reportOn, len(convs))
	if err != nil {
		return err
	}
	bs, err := parseBudgets(*budgets)
	if err != nil {
		return err
	}
	emb, err := embedFlags{}.provider()
	if err != nil {
		return err
	}
	if *kgDir == "" {
		*kgDir = filepath.Join(filepath.Dir(filepath.Dir(*path)), "memweaver-kg")
	}
	all := union(tune, report)
	rep := &evalReport{Source: *source, Knobs: knobs}
	mems, err := evalMemories(env, *source, *path, *kgDir, convs, all, emb, rep)
	if err != nil {
		return err
	}
	suite := eval.Suite{Budgets: bs, Config: knobs.Retrieval, Window: knobs.Window, Lexical: lexical.Build, Emb: emb, Compat: *compat, Baseline: true, Strong: true, Ablations: *ablate, Ceilings: true}
	rows, err := suite.Run(context.Background(), pickConversations(convs, all), mems)
	if err != nil {
		return err
	}
	splits := []namedSplit{{"held out (report-on " + *reportOn + ")", report}, {"tuning (tune-on " + *tuneOn + ")", tune}, {"all", all}}
	if rep.Splits, err = summarizeSplits(splits, convs, rows); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(env.Stdout, rep)
	}
	printEval(env.Stdout, rep)
	return nil
}

// tuningSplits reads --tune-on and --report-on over n conversations.
func tuningSplits(tuneOn, reportOn string, n int) (tune, report []int, err error) {
	if tune, err = sampleIndexes(tuneOn, n); err != nil {
		return nil, nil, err
	}
	report, err = sampleIndexes(reportOn, n)
	return tune, report, err
}

// namedSplit is a split of the conversations an evaluation reports on.
type namedSplit struct {
	name string
	idx  []int
}

// summarizeSplits summarises the rows over each split in turn.
func summarizeSplits(splits []namedSplit, convs []*locomo.Conversation, rows []eval.Row) ([]evalSplit, error) {
	out := make([]evalSplit, 0, len(splits))
	for _, sp := range splits {
		split, err := summarizeSplit(sp.name, sp.idx, convs, rows)
		if err != nil {
			return nil, err
		}
		out = append(out, split)
	}
	return out, nil
}

// pickConversations returns the conversations at idx, in that order.
func pickConversations(convs []*locomo.Conversation, idx []int) []*locomo.Conversation {
	out := make([]*locomo.Conversation, len(idx))
	for n, i := range idx {
		out[n] = convs[i]
	}
	return out
}

// summarizeSplit summarises every row over the conversations idx and
// compares, in strict recall and in answer coverage, each memory row with
// the baselines of its budget, and each ablation with the memory.
func summarizeSplit(name string, idx []int, convs []*locomo.Conversation, rows []eval.Row) (evalSplit, error) {
	samples := map[string]bool{}
	for _, i := range idx {
		samples[convs[i].ID] = true
	}
	sp := evalSplit{Name: name, Samples: idx}
	byKind := map[string]map[int][]eval.Question{}
	for _, r := range rows {
		qs := r.Of(samples)
		sp.Rows = append(sp.Rows, evalRow{Name: r.Name, Kind: r.Kind, Budget: r.Budget, Summary: eval.Summarize(qs)})
		if byKind[r.Kind] == nil {
			byKind[r.Kind] = map[int][]eval.Question{}
		}
		if r.Kind != "ablation" {
			byKind[r.Kind][r.Budget] = qs
		}
	}
	compare := func(of, against string, a, b []eval.Question, budget int) error {
		if b == nil {
			return nil
		}
		for _, metric := range []string{"strict", "coverage"} {
			c, err := eval.CompareBy(budget, a, b, metric)
			if err != nil {
				return err
			}
			c.Of, c.Against = of, against
			sp.Comparisons = append(sp.Comparisons, c)
		}
		return nil
	}
	for _, r := range rows {
		mem := byKind["memory"][r.Budget]
		var err error
		switch r.Kind {
		case "memory":
			if err = compare("memory", eval.StrongName, mem, byKind[eval.StrongName][r.Budget], r.Budget); err == nil {
				err = compare("memory", eval.BaselineName, mem, byKind[eval.BaselineName][r.Budget], r.Budget)
			}
		case "ablation":
			err = compare("memory, "+r.Ablation, "memory", r.Of(samples), mem, r.Budget)
		}
		if err != nil {
			return sp, err
		}
	}
	return sp, nil
}

// union returns the indexes of a and then those of b not in a.
func union(a, b []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, i := range append(append([]int(nil), a...), b...) {
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	return out
}

// parseBudgets reads a comma-separated list of token budgets.
func parseBudgets(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n <= 0 {
			return nil, usageError("--budgets %q: want positive token counts, comma-separated", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// evalMemories loads or makes the memory of every conversation.
func evalMemories(env *Env, source, path, kgDir string, convs []*locomo.Conversation, idx []int, emb embed.Provider, rep *evalReport) ([]*memory.Memory, error) {
	ws, err := openSharedWorkspace(env)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	var out []*memory.Memory
	for _, i := range idx {
		c := convs[i]
		switch source {
		case "imported":
			m, _, err := mwimport.Load(filepath.Join(kgDir, fmt.Sprintf("kg_sample_%d.json", i)), filepath.Join(kgDir, fmt.Sprintf("clusters_sample_%d.json", i)), c.Passages())
			if err != nil {
				return nil, err
			}
			m.ID = "imported-" + c.ID
			m.From = memory.Origin{Kind: "locomo", Path: mustAbs(path), Sample: i}
			out = append(out, m)
		case "built":
			m, err := ws.LoadMemory(context.Background(), c.ID)
			if err != nil {
				start := time.Now()
				if m, err = offlineBuilder(emb, false).Build(context.Background(), c.ID, c.Passages()); err != nil {
					return nil, err
				}
				rep.BuildMs = append(rep.BuildMs, time.Since(start).Milliseconds())
				m.From = memory.Origin{Kind: "locomo", Path: mustAbs(path), Sample: i}
				if err := ws.SaveMemory(context.Background(), m); err != nil {
					return nil, err
				}
			}
			out = append(out, m)
		default:
			return nil, usageError("--source %q: want built or imported", source)
		}
	}
	if source == "built" {
		sz, err := workspaceSize(ws)
		if err != nil {
			return nil, err
		}
		rep.Workspace = &sz
	}
	return out, nil
}

func printEval(w io.Writer, rep *evalReport) {
	fmt.Fprintf(w, "LoCoMo evidence recall, memory source: %s\n", rep.Source)
	fmt.Fprintln(w, "strict: a gold turn counts only when its text is in the rendered context; provenance: also when a triple or item drawn from it is (a diagnostic).")
	fmt.Fprintln(w, "coverage: the share of the gold answer's content words (stemmed, stop words out) in the context; span: short answers (≤4 words) held whole.")
	fmt.Fprintf(w, "%s: the memory's own turn retriever (window, speaker boost, dense fusion) with the graph and experiences off.\n", eval.StrongName)
	for _, sp := range rep.Splits {
		fmt.Fprintf(w, "\n%s: conversations %v\n", sp.Name, sp.Samples)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "row\tmulti-hop\ttemporal\topen-dom.\tsingle-hop\tstrict 1-4\tall found\tprovenance\tcoverage\tspan\ttokens\tcpu p95 ms\t")
		for _, r := range sp.Rows {
			s := r.Summary
			fmt.Fprintf(tw, "%s\t", r.Name)
			for c := 1; c <= 4; c++ {
				fmt.Fprintf(tw, "%.3f\t", s.ByCategory[c].Strict)
			}
			fmt.Fprintf(tw, "%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.0f\t%.2f\t\n", s.Overall.Strict, s.Overall.StrictAll, s.Overall.Recall,
				s.Overall.Coverage, s.Overall.Span, s.Overall.Tokens, s.CPU95ms)
		}
		tw.Flush()
		for _, c := range sp.Comparisons {
			fmt.Fprintf(w, "%s − %s at %d tokens, %s: overall %s", c.Of, c.Against, c.Budget, c.Metric, interval(c.Overall))
			for cat := 1; cat <= 4; cat++ {
				fmt.Fprintf(w, "; %s %s", locomo.CategoryName(cat), interval(c.ByCategory[cat]))
			}
			fmt.Fprintln(w)
		}
	}
	if rep.Workspace != nil {
		fmt.Fprintf(w, "\nworkspace: %s\n", *rep.Workspace)
	}
	if len(rep.BuildMs) > 0 {
		fmt.Fprintf(w, "built now (ms per conversation): %v\n", rep.BuildMs)
	}
}

// interval formats a difference with its 95% interval.
func interval(iv eval.Interval) string {
	return fmt.Sprintf("%+.3f [%+.3f, %+.3f]", iv.Mean, iv.Low, iv.High)
}
