package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	"ctxscope/engine/debug"
	"ctxscope/engine/memory/code"
	"ctxscope/engine/recall"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
	"ctxscope/search/lexical"
)

// memoryVariant reads the session's memory from its tool calls and
// results and measures, under the paper policy at p's budget, what it
// recovers at each look-back within b tokens, against BM25 over the
// evicted passages, with the paper+memory variant beside it, on the
// replay r prepared for the command.
func memoryVariant(s *session.Session, r *debug.Replay, p debug.Params, b int) (*recall.Variant, error) {
	mem := code.ReadSession(s.ID, s, nil)
	return recall.Compare(mem, s.Threads[p.Thread], p.Thread, r, p.Budget, recall.Options{Budget: b, Counter: tokens.Estimator{}, Index: lexical.Build})
}

// printVariant prints what memory recovers at the replay's look-backs.
func printVariant(w io.Writer, v *recall.Variant) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	rc := v.Recall
	fmt.Fprintf(tw, "memory\tat %d look-back(s), recall of ≤%d tokens brings back the evicted read %d time(s) (%.0f%%, %d tokens); BM25 over the evicted passages %d (%.0f%%, %d tokens)\n",
		rc.LookBacks, v.RecallBudget, rc.Memory.Recovered, 100*rc.Memory.Rate, rc.Memory.Tokens, rc.BM25.Recovered, 100*rc.BM25.Rate, rc.BM25.Tokens)
	if rc.Skipped > 0 {
		fmt.Fprintf(tw, "\t%d look-back(s) re-read content the memory does not hold\n", rc.Skipped)
	}
	fmt.Fprintf(tw, "%s\tpaper at τ−%d: %d look-back(s), %d avoided by recall, %d left (paper at τ: %d); %d tokens injected\n",
		v.Policy, v.RecallBudget, v.Reserved, v.Avoided, v.LookBacks, v.Paper, v.TokensAdded)
	tw.Flush()
}
