package recall

import (
	"context"
	"fmt"

	"ctxscope/engine/debug"
	"ctxscope/engine/memory"
	"ctxscope/engine/session"
)

// Index is one thread's passages of a session memory, indexed for recall
// (BM25, and the block each passage was read from), with the options of
// its recalls. Building it is most of an evaluation's cost (a third of a
// second for the 2,706 passages of the pi session), so a caller that
// evaluates many replays of one memory builds it once. It reads the
// memory as it was when built.
type Index struct {
	ix *index
	o  Options
}

// NewIndex indexes the passages of thread number thread (t) of mem, read
// from the session by package code, with o's defaults filled in.
// Building the BM25 index stops with ctx's cause when ctx ends.
func NewIndex(ctx context.Context, mem *memory.Memory, t *session.Thread, thread int, o Options) (*Index, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	ix, err := newIndex(ctx, mem, t, thread, o.Index)
	if err != nil {
		return nil, err
	}
	return &Index{ix: ix, o: o}, nil
}

// Evaluate measures recall at every look-back of life, a lifecycle of the
// indexed thread.
// It returns ctx's cause when ctx ends first.
func (x *Index) Evaluate(ctx context.Context, life *debug.Lifecycle) (*Report, error) {
	return x.ix.evaluate(ctx, life, x.o)
}

// Follow evaluates recall at the look-backs of life, as Evaluate does,
// and follows each relation of the memory cited by the thread through
// life. Relations read from other threads are left out. It returns ctx's
// cause when ctx ends first.
func (x *Index) Follow(ctx context.Context, life *debug.Lifecycle) (*Followed, error) {
	rep, err := x.ix.evaluate(ctx, life, x.o)
	if err != nil {
		return nil, err
	}
	return &Followed{Report: rep, Items: x.ix.follow(life, rep), Blocks: x.ix.block}, nil
}

// Variants measures the paper+memory variant of r, a replay of the
// indexed thread, at each budget of taus (see [Compare]). It stops at the
// first error, or with ctx's cause when ctx ends.
func (x *Index) Variants(ctx context.Context, r *debug.Replay, taus []int) ([]*Variant, error) {
	for _, tau := range taus {
		if tau <= x.o.Budget {
			return nil, fmt.Errorf("recall: the budget %d leaves no room for %d recalled tokens", tau, x.o.Budget)
		}
	}
	out := make([]*Variant, 0, len(taus))
	for _, tau := range taus {
		if err := context.Cause(ctx); err != nil {
			return nil, err
		}
		v, err := x.ix.variant(ctx, r, tau, x.o)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
