package cli

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"text/tabwriter"
	"time"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/eval"
	"ctxscope/engine/memory/llm"
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/memory/mwimport"
	"ctxscope/engine/memory/retrieve"
	"ctxscope/search/lexical"
)

// evalRow is one configuration's result.
type evalRow struct {
	Name    string          `json:"name"`
	Summary eval.Summary    `json:"summary"`
	Results []eval.Question `json:"-"`
}

// evalReport is what `memory eval --json` prints.
type evalReport struct {
	Source  string    `json:"source"`
	Samples int       `json:"samples"`
	Budget  int       `json:"budget"`
	Rows    []evalRow `json:"rows"`
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
	sample := fs.String("sample", "all", "conversation indexes, comma-separated, or all")
	budget := fs.Int("budget", 1000, "token budget of the budgeted configuration")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	answer := fs.Bool("answer", false, "answer every question with the configured model (--llm-url, --llm-model) and score F1, BLEU-1 and LoCoMo's F1")
	var lf llmFlags
	lf.register(fs)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	var ans eval.Answerer
	if *answer {
		c, err := lf.client()
		if err != nil {
			return err
		}
		ans = llm.Answerer{Client: c, Rand: rand.New(rand.NewPCG(1, 2))}
	}
	convs, err := readLoCoMo(*path)
	if err != nil {
		return err
	}
	idx, err := sampleIndexes(*sample, len(convs))
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
	rep := &evalReport{Source: *source, Samples: len(idx), Budget: *budget}
	mems, err := evalMemories(env, *source, *path, *kgDir, convs, idx, emb, rep)
	if err != nil {
		return err
	}
	if err := evalRun(rep, convs, idx, mems, emb, *budget, ans); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(env.Stdout, rep)
	}
	printEval(env.Stdout, rep)
	return nil
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
			m, err := ws.LoadMemory(c.ID)
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

// evalRun scores every configuration and the BM25 baselines.
func evalRun(rep *evalReport, convs []*locomo.Conversation, idx []int, mems []*memory.Memory, emb embed.Provider, budget int, ans eval.Answerer) error {
	budgeted := retrieve.Budgeted(budget)
	configs := []struct {
		name   string
		cfg    retrieve.Config
		window int
	}{
		{"released (dense only)", retrieve.Released(), 0},
		{"released + BM25 + window", retrieve.Default(), 1},
		{fmt.Sprintf("budgeted ≤%d", budget), budgeted, 1},
	}
	rows := make([]evalRow, len(configs)+3)
	for k, c := range configs {
		rows[k].Name = "memory: " + c.name
	}
	rows[len(configs)].Name = "baseline: BM25 turns, top 6"
	rows[len(configs)+1].Name = "baseline: BM25 turns, top 20"
	rows[len(configs)+2].Name = fmt.Sprintf("baseline: BM25 turns, ≤%d tokens", budget)
	baselines := []eval.Baseline{{K: 6}, {K: 20}, {Budget: budget}}
	for n, i := range idx {
		var xs [2]*retrieve.Index
		for w := range xs {
			// The window-0 index serves the released configuration, so
			// it also leaves out triples named like structural edges.
			x, err := retrieve.New(context.Background(), mems[n], emb, retrieve.Options{Lexical: lexical.Build, Window: w, StructuralNames: w == 0})
			if err != nil {
				return err
			}
			xs[w] = x
		}
		for k, c := range configs {
			x := xs[c.window]
			var a eval.Answerer
			if k == len(configs)-1 {
				a = ans // answers from the budgeted context only
			}
			qs, err := eval.Retrieval(context.Background(), convs[i], x, c.cfg, nil, a)
			if err != nil {
				return err
			}
			rows[k].Results = append(rows[k].Results, qs...)
		}
		for k, b := range baselines {
			qs, err := b.BM25(convs[i], lexical.Build, nil)
			if err != nil {
				return err
			}
			rows[len(configs)+k].Results = append(rows[len(configs)+k].Results, qs...)
		}
	}
	for k := range rows {
		rows[k].Summary = eval.Summarize(rows[k].Results)
	}
	rep.Rows = rows
	return nil
}

func printEval(w io.Writer, rep *evalReport) {
	fmt.Fprintf(w, "LoCoMo evidence recall, %d conversation(s), memory source: %s\n\n", rep.Samples, rep.Source)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "configuration\tmulti-hop\ttemporal\topen-dom.\tsingle-hop\tall 1-4\tall found\tverbatim\tadvers.\ttokens\tturns\tp50 ms\tp95 ms\tcpu p95\t")
	for _, r := range rep.Rows {
		s := r.Summary
		fmt.Fprintf(tw, "%s\t", r.Name)
		for c := 1; c <= 4; c++ {
			fmt.Fprintf(tw, "%.3f\t", s.ByCategory[c].Recall)
		}
		fmt.Fprintf(tw, "%.3f\t%.3f\t%.3f\t%.3f\t%.0f\t%.1f\t%.2f\t%.2f\t%.2f\t\n", s.Overall.Recall, s.Overall.AllFound, s.Overall.Passage, s.ByCategory[5].Recall, s.Overall.Tokens, s.Overall.Turns, s.P50ms, s.P95ms, s.CPU95ms)
	}
	tw.Flush()
	if s := rep.Rows[2].Summary; s.Overall.F1 > 0 || s.Overall.Official > 0 {
		fmt.Fprintf(w, "\nanswers from the budgeted context (categories 1-4): F1 %.3f, BLEU-1 %.3f, LoCoMo F1 %.3f; adversarial LoCoMo F1 %.3f\n",
			s.Overall.F1, s.Overall.BLEU1, s.Overall.Official, s.ByCategory[5].Official)
	}
	fmt.Fprintln(w, "\nRecall counts a turn as retrieved when the context shows it or a triple or item drawn from it; \"verbatim\" counts shown passages only (categories 1-4).")
	if rep.Workspace != nil {
		fmt.Fprintf(w, "\nworkspace: %s\n", *rep.Workspace)
	}
	if len(rep.BuildMs) > 0 {
		fmt.Fprintf(w, "built now (ms per conversation): %v\n", rep.BuildMs)
	}
}
