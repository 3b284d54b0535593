package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"ctxscope/engine/memory/eval"
	"ctxscope/engine/memory/retrieve"
	"ctxscope/search/lexical"
)

// runMemoryTune chooses the retrieval knobs on the tuning conversations
// only, by coordinate ascent on the strict recall (eval.Objective), and
// prints the trials and the chosen knobs; --write saves them.
func runMemoryTune(env *Env, args []string) error {
	fs := newFlags("memory tune", env.Stderr)
	path := fs.String("locomo", "", "LoCoMo file (locomo10.json)")
	tuneOn := fs.String("tune-on", "0-4", "the conversations to tune on; keep the reported ones out")
	budget := fs.Int("budget", 1000, "the context budget tuned for")
	passes := fs.Int("passes", 3, "coordinate-ascent passes at most")
	write := fs.String("write", "", "write the chosen knobs to this file (engine/memory/retrieve/knobs.json ships them)")
	asJSON := fs.Bool("json", false, "print the trials and knobs as JSON")
	kf := addKnobFlags(fs)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	start, err := kf.knobs()
	if err != nil {
		return err
	}
	convs, err := readLoCoMo(*path)
	if err != nil {
		return err
	}
	idx, err := sampleIndexes(*tuneOn, len(convs))
	if err != nil {
		return err
	}
	emb, err := embedFlags{}.provider()
	if err != nil {
		return err
	}
	rep := &evalReport{}
	mems, err := evalMemories(env, "built", *path, "", convs, idx, emb, rep)
	if err != nil {
		return err
	}
	t := eval.Tuner{Suite: eval.Suite{Budgets: []int{*budget}, Lexical: lexical.Build, Emb: emb, Indexes: map[string]*retrieve.Index{}},
		Axes: eval.DefaultAxes(), Passes: *passes}
	best, trials, err := t.Run(context.Background(), start, pickConversations(convs, idx), mems)
	if err != nil {
		return err
	}
	if *write != "" {
		b, _ := json.MarshalIndent(best, "", "  ")
		if err := os.WriteFile(*write, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(env.Stdout, struct {
			TuneOn []int        `json:"tuneOn"`
			Budget int          `json:"budget"`
			Trials []eval.Trial `json:"trials"`
			Knobs  any          `json:"knobs"`
		}{idx, *budget, trials, best})
	}
	printTuning(env.Stdout, idx, *budget, trials, best)
	return nil
}

// printTuning prints a tuning's trials, the kept ones starred, and the
// knobs it chose.
func printTuning(w io.Writer, idx []int, budget int, trials []eval.Trial, best retrieve.Knobs) {
	fmt.Fprintf(w, "tuned on conversations %v at %d tokens; objective = (strict 1-4 + strict multi-hop) / 2\n", idx, budget)
	for _, tr := range trials {
		mark := " "
		if tr.Kept {
			mark = "*"
		}
		change := tr.Change
		if change == "" {
			change = "(start)"
		}
		fmt.Fprintf(w, "%s %-36s objective %.4f  strict %.3f  multi-hop %.3f\n", mark, change, tr.Score, tr.Overall, tr.MultiHop)
	}
	b, _ := json.MarshalIndent(best, "", "  ")
	fmt.Fprintf(w, "chosen knobs:\n%s\n", b)
}
