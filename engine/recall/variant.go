package recall

import (
	"context"

	"ctxscope/engine/debug"
	"ctxscope/engine/memory"
	"ctxscope/engine/session"
)

// PolicyPaperMemory names the paper policy with memory recall.
const PolicyPaperMemory = "paper+memory"

// Variant is the paper+memory replay of a thread at budget τ. The paper
// policy runs at τ − B, keeping B tokens of the window for recalled
// passages, so that what recall injects counts against τ; at every
// look-back the memory's recall (at most B tokens) is injected, and the
// look-back is avoided when the recall brings back the evicted read.
type Variant struct {
	Policy       string `json:"policy"`
	Budget       int    `json:"budget"`       // τ
	RecallBudget int    `json:"recallBudget"` // B
	// Paper is the paper policy's look-backs at τ, with no memory.
	Paper int `json:"paperLookBacks"`
	// Reserved is the paper policy's look-backs at τ − B.
	Reserved int `json:"reservedLookBacks"`
	// Avoided are those of Reserved whose evicted read the recall brings
	// back; LookBacks = Reserved − Avoided are left.
	Avoided   int `json:"avoided"`
	LookBacks int `json:"lookBacks"`
	// TokensAdded is what the injected recalls cost, all together.
	TokensAdded int `json:"tokensAdded"`
	// Recall is the evaluation at τ, memory against BM25.
	Recall *Report `json:"recall"`
}

// Compare evaluates recall on thread number thread of a session (t, and
// mem read from it by package code) under the paper policy at budget
// tau, and the paper+memory variant beside it.
func Compare(mem *memory.Memory, t *session.Thread, thread int, r *debug.Replay, tau int, o Options) (*Variant, error) {
	vs, err := Variants(context.Background(), mem, t, thread, r, []int{tau}, o)
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// Variants is [Compare] at each budget of taus, with one index of the
// thread's passages for all of them. It stops at the first error, or
// with ctx's cause when ctx ends.
func Variants(ctx context.Context, mem *memory.Memory, t *session.Thread, thread int, r *debug.Replay, taus []int, o Options) ([]*Variant, error) {
	x, err := NewIndex(ctx, mem, t, thread, o)
	if err != nil {
		return nil, err
	}
	return x.Variants(ctx, r, taus)
}

// variant replays the paper policy at tau and at tau − B and measures
// recall at the look-backs of each.
func (ix *index) variant(ctx context.Context, r *debug.Replay, tau int, o Options) (*Variant, error) {
	v := &Variant{Policy: PolicyPaperMemory, Budget: tau, RecallBudget: o.Budget}
	for _, run := range []struct {
		budget int
		into   **Report
	}{{tau, &v.Recall}, {tau - o.Budget, nil}} {
		life, err := r.Lifecycle(debug.Params{Policy: "paper", Budget: run.budget})
		if err != nil {
			return nil, err
		}
		rep, err := ix.evaluate(ctx, life, o)
		if err != nil {
			return nil, err
		}
		if run.into != nil {
			*run.into = rep
			v.Paper = rep.LookBacks + rep.Skipped
			continue
		}
		v.Reserved = rep.LookBacks + rep.Skipped
		v.Avoided = rep.Memory.Recovered
		v.TokensAdded = rep.Memory.Tokens
	}
	v.LookBacks = v.Reserved - v.Avoided
	return v, nil
}
