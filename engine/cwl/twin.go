package cwl

// Twin returns a replayer of the same requests that shares everything r
// prepared (plans, episodes, graphs, look-backs), which runs only read,
// and has policy state of its own: it runs beside r, in another
// goroutine, at the cost of that state alone. Preparing the replayer
// again would tokenize and classify the whole thread once more (half a
// second of CPU for the paper-scale session, spent when its first
// context is asked for).
func (r *Replayer) Twin() *Replayer {
	t := &Replayer{Mode: r.Mode, Counter: r.Counter, reqs: r.reqs, ctxs: make([]*replayCtx, len(r.ctxs)),
		reqCtx: r.reqCtx, shared: r.shared, output: r.output, looks: r.looks, diags: r.diags}
	for i, c := range r.ctxs {
		t.ctxs[i] = c.twin()
	}
	return t
}

// twin returns a context sharing c's prepared data, with policy state of
// its own. It copies c whole, so that what a preparation makes is shared
// without being listed here; the per-run fields copied with it are reset
// at the start of every run (resetRun).
func (c *replayCtx) twin() *replayCtx {
	t := *c
	t.newPolicyState(c.pi)
	return &t
}

// newPolicyState gives c the state that runs write: the paper policy's,
// pi-cwl's and the levels of pi-cwl's previous pass. pi-cwl's
// measurements of each segment alone, which runs only read, are taken
// from like when it is given and made now when it is nil.
func (c *replayCtx) newPolicyState(like *piPasser) {
	c.paper = newPaperRun(c.plan, c.eps, c.graph)
	c.pi = newPiPasserFor(c.plan, c.segs, c.close, c.loose)
	if like != nil {
		c.pi.fast = like.fast
	} else {
		c.pi.buildFast()
	}
	c.prevLevel = make([]uint8, len(c.segs))
}
