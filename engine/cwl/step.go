package cwl

import (
	"fmt"
	"slices"

	"ctxscope/engine/session"
)

// ContextView is the exact input of one request under a policy: which of
// the context's messages it holds and, for rebuilt messages, which blocks.
type ContextView struct {
	Request  int         `json:"request"`
	Context  int         `json:"ctx"`
	Tokens   int         `json:"tokens"`
	Messages []ViewEntry `json:"messages"`
	// Summary is the size of the summary the compact policy put before
	// the kept messages, 0 when there is none.
	Summary int `json:"summary,omitempty"`
	// Levels is the eviction level of each of the context's episodes
	// (paper and pi-cwl).
	Levels []int `json:"levels,omitempty"`
}

// ContextAt replays k's context up to request k and returns its exact
// input.
func (r *Replayer) ContextAt(o RunOptions, k int) (*ContextView, error) {
	if k < 0 || k >= len(r.reqs) {
		return nil, fmt.Errorf("cwl: request %d out of range [0, %d)", k, len(r.reqs))
	}
	o, err := r.normalize(o)
	if err != nil {
		return nil, err
	}
	o.Detail = true // the exact simulation, which materializes the view
	pts := make([]Point, k+1)
	if err := r.runContextUntil(o, k, pts, nil); err != nil {
		return nil, err
	}
	return r.viewAt(o, k, pts[k].After), nil
}

// viewAt materializes the input of request k from the policy state a
// detailed run up to k left.
func (r *Replayer) viewAt(o RunOptions, k, tokens int) *ContextView {
	c := r.ctxs[r.reqCtx[k]]
	n := r.reqs[k].Len
	v := &ContextView{Request: k, Context: int(r.reqCtx[k]), Tokens: tokens}
	switch o.Policy {
	case PolicyPaper:
		v.Messages = c.paper.w.view()
		for _, lv := range c.paper.level {
			v.Levels = append(v.Levels, int(lv))
		}
	case PolicyPiCWL:
		v.Messages = c.pi.w.view()
		v.Levels = make([]int, len(c.eps.List))
		for s, lv := range c.pi.level {
			if e := c.segToEp[s]; e >= 0 {
				v.Levels[e] = levelOfStep[lv]
			}
		}
	case PolicyTruncate:
		v.Messages = c.keepFrom(n, c.cut)
	case PolicyCompact:
		v.Messages = c.keepFrom(n, c.compactAt)
		if c.compactAt > 0 {
			v.Summary = o.Compact.SummaryTokens
		}
	default:
		v.Messages = c.keepFrom(n, 0)
	}
	return v
}

// keepFrom lists the protected messages before cut (system prompts only
// when systemOnly) and every message from cut to n.
func (c *replayCtx) keepFrom(n, cut int) []ViewEntry {
	var out []ViewEntry
	for i := range n {
		if i >= cut || c.plan.protected(i) {
			out = append(out, ViewEntry{I: i})
		}
	}
	return out
}

// Message returns message i of the context of request k.
func (r *Replayer) Message(k, i int) *session.Message { return r.ctxs[r.reqCtx[k]].plan.Msgs[i] }

// Diff is how the input of request k differs from that of request k−1.
type Diff struct {
	Request      int          `json:"request"`
	TokensBefore int          `json:"tokensBefore"` // the previous input's tokens
	TokensAfter  int          `json:"tokensAfter"`
	Added        []MessageRef `json:"added"`   // in k's input only
	Removed      []MessageRef `json:"removed"` // in k−1's input only
	Changed      []MessageRef `json:"changed"` // in both, with other blocks
}

// MessageRef names a message of a request's context, with its kept
// blocks when it was rebuilt.
type MessageRef struct {
	Context int   `json:"ctx"`
	Index   int   `json:"i"`
	Blocks  []int `json:"blocks,omitempty"`
}

// DiffAt compares the inputs of requests k−1 and k (for k = 0, with an
// empty input). Messages are matched by identity, so the diff holds across
// compactions and branches.
func (r *Replayer) DiffAt(o RunOptions, k int) (*Diff, error) {
	cur, err := r.ContextAt(o, k)
	if err != nil {
		return nil, err
	}
	d := &Diff{Request: k, TokensAfter: cur.Tokens, Added: []MessageRef{}, Removed: []MessageRef{}, Changed: []MessageRef{}}
	prev := map[*session.Message]ViewEntry{}
	pv := &ContextView{}
	if k > 0 {
		if pv, err = r.ContextAt(o, k-1); err != nil {
			return nil, err
		}
		d.TokensBefore = pv.Tokens
		for _, e := range pv.Messages {
			prev[r.Message(k-1, e.I)] = e
		}
	}
	for _, e := range cur.Messages {
		m := r.Message(k, e.I)
		p, ok := prev[m]
		switch {
		case !ok:
			d.Added = append(d.Added, MessageRef{Context: cur.Context, Index: e.I, Blocks: e.Blocks})
		case !sameBlocks(p.Blocks, e.Blocks):
			d.Changed = append(d.Changed, MessageRef{Context: cur.Context, Index: e.I, Blocks: e.Blocks})
		}
		delete(prev, m)
	}
	for _, e := range pv.Messages {
		if _, left := prev[r.Message(k-1, e.I)]; left {
			d.Removed = append(d.Removed, MessageRef{Context: pv.Context, Index: e.I, Blocks: e.Blocks})
		}
	}
	return d, nil
}

// sameBlocks reports whether two block lists are equal; nil (the whole
// message) differs from every list, the empty one included.
func sameBlocks(a, b []int) bool { return (a == nil) == (b == nil) && slices.Equal(a, b) }
