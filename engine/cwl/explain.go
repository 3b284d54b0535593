package cwl

import "fmt"

// Reasons a message or block is missing from a request's input.
const (
	ReasonEvicted   = "evicted"   // an eviction of the paper or pi-cwl policy removed it
	ReasonTruncated = "truncated" // the truncate baseline dropped it
	ReasonCompacted = "compacted" // the compact baseline summarized it
)

// Removal says what took a message of a request's context, or one block
// of it, out of the request's input.
type Removal struct {
	Message int `json:"i"`
	// Block is the block index within the message, -1 for the whole
	// message.
	Block  int    `json:"block"`
	Reason string `json:"reason"`
	// Request is the request whose preparation removed it (its last
	// removal, under pi-cwl, whose passes can restore content); -1 when
	// the policy keeps no record (the baselines).
	Request int `json:"request"`
	// Episode is the evicted episode (an index into the context's
	// episodes), -1 when none.
	Episode int    `json:"episode"`
	Level   int    `json:"level,omitempty"` // paper level 1-4
	Step    string `json:"step,omitempty"`  // the pi-cwl step, when the policy names one
}

// Explanation is the exact input of one request together with why every
// part of the request's context that it lacks is missing.
type Explanation struct {
	*ContextView
	// Point is the request's replay point, its evictions detailed.
	Point Point `json:"point"`
	// Removed lists, in message order, every message of the first
	// [ContextView] messages' context prefix that the input lacks, and
	// every block missing from a message it keeps.
	Removed []Removal `json:"removed"`
}

// removalKey names a message (block -1) or one of its blocks.
type removalKey struct{ msg, block int }

// Explain replays k's context up to request k, as [Replayer.ContextAt]
// does, and also attributes each missing message and block to the
// eviction that removed it. It costs one detailed replay of that context
// up to k.
func (r *Replayer) Explain(o RunOptions, k int) (*Explanation, error) {
	x, _, err := r.explain(o, k, false)
	return x, err
}

// ExplainWithPrevious is [Replayer.Explain] that also returns the input
// of request k−1 (nil for k = 0), as [Replayer.ContextAt] would: taken
// on the way when k−1 is of k's context, which saves a second replay of
// it to a view that shows what changed from one request to the next.
func (r *Replayer) ExplainWithPrevious(o RunOptions, k int) (*Explanation, *ContextView, error) {
	return r.explain(o, k, true)
}

func (r *Replayer) explain(o RunOptions, k int, withPrevious bool) (*Explanation, *ContextView, error) {
	if k < 0 || k >= len(r.reqs) {
		return nil, nil, fmt.Errorf("cwl: request %d out of range [0, %d)", k, len(r.reqs))
	}
	o, err := r.normalize(o)
	if err != nil {
		return nil, nil, err
	}
	o.Detail = true
	pts := make([]Point, k+1)
	var prev *ContextView
	seen := func(j int) {
		if j == k-1 {
			prev = r.viewAt(o, j, pts[j].After)
		}
	}
	if !withPrevious || k == 0 {
		seen = nil
	}
	if err := r.runContextUntil(o, k, pts, seen); err != nil {
		return nil, nil, err
	}
	x := &Explanation{ContextView: r.viewAt(o, k, pts[k].After), Point: pts[k]}
	why := removals{r: r, o: o, c: r.ctxs[r.reqCtx[k]], last: r.lastRemovals(pts, k), byEpisode: r.lastEpisodeEvictions(pts, k)}
	x.Removed = why.of(r.reqs[k].Len, x.Messages)
	if withPrevious && k > 0 && prev == nil { // k−1 is of another context
		if prev, err = r.ContextAt(o, k-1); err != nil {
			return nil, nil, err
		}
	}
	return x, prev, nil
}

// removals explains what the view of one request lacks, from the
// removals of the run up to it.
type removals struct {
	r         *Replayer
	o         RunOptions
	c         *replayCtx
	last      map[removalKey]Removal
	byEpisode map[int]Removal
}

// of lists a removal for every message of the request's n that view does
// not hold, and for every block missing from a message it holds in part.
func (x removals) of(n int, view []ViewEntry) []Removal {
	out := []Removal{}
	next := 0
	for i := range n {
		if next < len(view) && view[next].I == i {
			e := view[next]
			next++
			if e.Blocks == nil {
				continue
			}
			kept := map[int]bool{}
			for _, b := range e.Blocks {
				kept[b] = true
			}
			for b := range len(x.c.plan.Msgs[i].Blocks) {
				if !kept[b] {
					out = append(out, x.why(i, b))
				}
			}
			continue
		}
		out = append(out, x.why(i, -1))
	}
	return out
}

// why is the removal of message i (b < 0) or of its block b: the last
// removal of it in the run, the removal of its whole message, or, for
// what no eviction of the run names, the fallback.
func (x removals) why(i, b int) Removal {
	if rm, ok := x.last[removalKey{i, b}]; ok {
		return rm
	}
	if b >= 0 {
		if rm, ok := x.last[removalKey{i, -1}]; ok {
			rm.Block = b
			return rm
		}
	}
	return x.r.fallbackRemoval(x.o, x.c, x.byEpisode, i, b)
}

// lastRemovals maps every message and block that the detailed evictions of
// requests 0..k (in k's context) removed to the last eviction that did.
func (r *Replayer) lastRemovals(pts []Point, k int) map[removalKey]Removal {
	out := map[removalKey]Removal{}
	for j := 0; j <= k; j++ {
		if r.reqCtx[j] != r.reqCtx[k] {
			continue
		}
		for _, ev := range pts[j].Evictions {
			rm := Removal{Reason: ReasonEvicted, Request: j, Episode: ev.Episode, Level: ev.Level, Step: ev.Step}
			for _, m := range ev.Messages {
				rm.Message, rm.Block = m, -1
				out[removalKey{m, -1}] = rm
			}
			for _, mb := range ev.Blocks {
				rm.Message, rm.Block = mb[0], mb[1]
				out[removalKey{mb[0], mb[1]}] = rm
			}
		}
	}
	return out
}

// lastEpisodeEvictions returns each episode's last eviction among
// requests 0..k of k's context.
func (r *Replayer) lastEpisodeEvictions(pts []Point, k int) map[int]Removal {
	out := map[int]Removal{}
	for j := 0; j <= k; j++ {
		if r.reqCtx[j] != r.reqCtx[k] {
			continue
		}
		for _, ev := range pts[j].Evictions {
			out[ev.Episode] = Removal{Reason: ReasonEvicted, Request: j, Episode: ev.Episode, Level: ev.Level, Step: ev.Step}
		}
	}
	return out
}

// fallbackRemoval explains a missing part no eviction record names: the
// baselines keep none, and an eviction that removed a whole message may
// have logged only the message.
func (r *Replayer) fallbackRemoval(o RunOptions, c *replayCtx, byEpisode map[int]Removal, i, b int) Removal {
	rm := Removal{Message: i, Block: b, Request: -1, Episode: -1}
	switch o.Policy {
	case PolicyTruncate:
		rm.Reason = ReasonTruncated
		return rm
	case PolicyCompact:
		rm.Reason = ReasonCompacted
		if ev, ok := byEpisode[-1]; ok {
			rm.Request, rm.Level, rm.Step = ev.Request, ev.Level, ev.Step
		}
		return rm
	}
	rm.Reason = ReasonEvicted
	for e := range c.eps.List {
		ep := &c.eps.List[e]
		if ep.Start <= i && i <= ep.End {
			if ev, ok := byEpisode[e]; ok {
				ev.Message, ev.Block = i, b
				return ev
			}
			rm.Episode = e
			break
		}
	}
	return rm
}
