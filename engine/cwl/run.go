package cwl

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// RunOptions configures one replay.
type RunOptions struct {
	Policy string // PolicyPaper (default), PolicyPiCWL, PolicyNone, PolicyTruncate, PolicyCompact
	Budget int    // τ, in tokens
	// Detail records the messages and blocks each eviction removed.
	Detail bool
	// Lean leaves out, under the paper policy, what explains a point
	// rather than measures it: an unreachable point's Blockers, and the
	// LateDependencies. A view that shows them for one request at a time,
	// from its context, replays a τ drag's steps lean: the blockers of
	// every request over budget walk its context's live episodes.
	Lean bool
	// Unsplit leaves every point's Cats zero: a caller that reads the
	// kept input alone (a chart while τ is dragged) spares scaling its
	// split by category to the provider's tokens.
	Unsplit bool
	Compact CompactOptions
	// Prices, when set, prices every request; otherwise RequestPrices
	// gives each request its own model's (see PricesFromCatalog), and a
	// request without one is not priced.
	Prices        Prices
	RequestPrices []RequestPrice
	PriceSource   string
	// Calibration, when set, gives each request's scale from counted to
	// provider tokens (see tokens.Calibrate): the budget is then in the
	// provider's tokens and the timeline's figures too.
	Calibration []Scale
}

// Policies lists the policy names Run accepts.
var Policies = []string{PolicyPaper, PolicyPiCWL, PolicyNone, PolicyTruncate, PolicyCompact}

// Run replays every request under one policy and budget. Runs are
// deterministic and independent: a Replayer can run any number of times,
// but not concurrently.
func (r *Replayer) Run(o RunOptions) (*Timeline, error) {
	o, err := r.normalize(o)
	if err != nil {
		return nil, err
	}
	t := newTimeline(r, o)
	if err := r.complete(o, t); err != nil {
		return nil, err
	}
	return t, nil
}

// RunWith replays as Run does and lends the timeline to use, which must
// keep nothing of it (no point, no slice of one) once it returns: the
// next RunWith writes its points over the same memory. A caller that
// reads each run once and keeps what it reads (a τ drag's steps) then
// allocates no timeline per run, and leaves the garbage collector less
// to do while the user waits.
func (r *Replayer) RunWith(o RunOptions, use func(*Timeline) error) error {
	o, err := r.normalize(o)
	if err != nil {
		return err
	}
	t := r.lent
	if t == nil {
		t = newTimeline(r, o)
		r.lent = t
	} else {
		r.heading(t, o)
	}
	if err := r.complete(o, t); err != nil {
		return err
	}
	return use(t)
}

// complete replays every request into t's points and sums up the run.
func (r *Replayer) complete(o RunOptions, t *Timeline) error {
	// Each point is finished as soon as it is replayed, while it is in
	// the cache, and by the goroutine that replayed it: a pass of its own
	// over a long session's points afterwards made a τ drag's step 12–22%
	// longer on one core (BenchmarkStepPaperScale, docs/bench/debugger.md).
	var finish func(k int)
	if o.Unsplit || o.Calibration != nil {
		finish = func(k int) {
			pt := &t.Requests[k]
			if o.Unsplit {
				pt.Cats = [numCats]int32{}
			}
			if o.Calibration != nil {
				pt.scale(o.Calibration[k], !o.Unsplit)
			}
		}
	}
	if err := r.runUntil(o, len(r.reqs)-1, t.Requests, finish); err != nil {
		return err
	}
	t.Cost = r.summarize(t, o)
	t.Assumptions = assumptions(o, r.Mode)
	return nil
}

func (r *Replayer) normalize(o RunOptions) (RunOptions, error) {
	if o.Policy == "" {
		o.Policy = PolicyPaper
	}
	if o.Budget < 0 {
		return o, fmt.Errorf("cwl: negative budget %d", o.Budget)
	}
	if o.Calibration != nil && len(o.Calibration) != len(r.reqs) {
		return o, fmt.Errorf("cwl: %d calibration scales for %d requests", len(o.Calibration), len(r.reqs))
	}
	if o.RequestPrices != nil && len(o.RequestPrices) != len(r.reqs) {
		return o, fmt.Errorf("cwl: %d request prices for %d requests", len(o.RequestPrices), len(r.reqs))
	}
	if o.Prices != (Prices{}) && o.PriceSource == "" {
		o.PriceSource = "the given price table"
	}
	o.Compact = o.Compact.withDefaults(o.Budget)
	return o, nil
}

// runUntil replays requests 0..last into pts (which holds at least
// last+1 points), calling seen, when it is not nil, after each (from the
// goroutine that replays the request's context), and leaves each
// context's policy state as of its last replayed request. Contexts share
// no policy state (a request reads and changes only its own context's),
// so they replay side by side, one goroutine per core: a long session
// that its agent compacted, or that branched, replays in a fraction of
// the time.
func (r *Replayer) runUntil(o RunOptions, last int, pts []Point, seen func(k int)) error {
	step, err := r.stepOf(o.Policy)
	if err != nil {
		return err
	}
	workers := min(runtime.GOMAXPROCS(0), len(r.ctxs))
	if workers <= 1 {
		for _, c := range r.ctxs {
			r.replayContext(c, step, o, last, pts, seen)
		}
		return nil
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(r.ctxs)); i = next.Add(1) - 1 {
				r.replayContext(r.ctxs[i], step, o, last, pts, seen)
			}
		})
	}
	wg.Wait()
	return nil
}

// runContextUntil replays the requests of k's context up to k into pts
// (which holds at least k+1 points; those of other contexts are left as
// they are), calling seen, when it is not nil, after each. A request's
// input depends on its own context alone, so what one request holds
// ([Replayer.ContextAt], [Replayer.Explain]) costs the replay of its
// context, not of the session.
func (r *Replayer) runContextUntil(o RunOptions, k int, pts []Point, seen func(j int)) error {
	step, err := r.stepOf(o.Policy)
	if err != nil {
		return err
	}
	r.replayContext(r.ctxs[r.reqCtx[k]], step, o, k, pts, seen)
	return nil
}

// stepFunc prepares request k of context c under o, into pt.
type stepFunc func(k int, c *replayCtx, pt *Point, o RunOptions)

// replayContext replays context c's requests up to last into pts, from
// a fresh policy state, calling seen (when not nil) after each request.
func (r *Replayer) replayContext(c *replayCtx, step stepFunc, o RunOptions, last int, pts []Point, seen func(k int)) {
	c.resetRun()
	for _, k32 := range c.requests {
		k := int(k32)
		if k > last {
			break
		}
		pt := &pts[k]
		n := r.reqs[k].Len
		// A point written over (RunWith) keeps the room of its lists.
		*pt = Point{Request: k, Context: int(r.reqCtx[k]), Messages: n, Before: c.plan.Tokens(n),
			Evictions: pt.Evictions[:0], Restored: pt.Restored[:0]}
		ok := o
		ok.Budget = o.budgetAt(k)
		step(k, c, pt, ok)
		if seen != nil {
			seen(k)
		}
	}
}

// stepOf returns the step function of a policy.
func (r *Replayer) stepOf(policy string) (stepFunc, error) {
	switch policy {
	case PolicyNone:
		return func(k int, c *replayCtx, pt *Point, _ RunOptions) { r.stepNone(k, c, pt) }, nil
	case PolicyPaper:
		return r.stepPaper, nil
	case PolicyPiCWL:
		return r.stepPi, nil
	case PolicyTruncate:
		return r.stepTruncate, nil
	case PolicyCompact:
		return r.stepCompact, nil
	}
	return nil, fmt.Errorf("cwl: unknown policy %q (want one of paper, pi-cwl, none, truncate, compact)", policy)
}

// resetRun clears the per-run state of a context.
func (c *replayCtx) resetRun() {
	c.paper.reset()
	c.paper.w.logging = false
	c.pi.resetRun()
	c.lastN, c.lastAfter = 0, 0
	c.cut = 0
	c.compactAt = 0
	c.summaries = 0
	for i := range c.prevLevel {
		c.prevLevel[i] = 0
	}
}

// stepNone sends the whole input.
func (r *Replayer) stepNone(k int, c *replayCtx, pt *Point) {
	p, n := c.plan, pt.Messages
	pt.After = pt.Before
	var cats [numCats]float64
	copy(cats[:], p.pBrk[n*numCats:(n+1)*numCats])
	pt.Cats = roundCats(cats)
	pt.Cached = p.Tokens(int(r.shared[k]))
}

// stepPaper runs the paper policy on the context's persistent state.
func (r *Replayer) stepPaper(k int, c *replayCtx, pt *Point, o RunOptions) {
	run, n := c.paper, pt.Messages
	w := run.w
	w.logging = o.Detail
	w.noCats = o.Unsplit
	prevN := w.n
	modMin := math.MaxInt
	run.request(n, o.Budget, func(ep, lv, freed int) {
		ev := Eviction{Episode: ep, Level: lv, Freed: freed}
		if o.Detail {
			ev.Messages, ev.Blocks = w.takeLog()
		}
		pt.Evictions = append(pt.Evictions, ev)
		modMin = min(modMin, run.eps[ep].Start)
	})
	pt.After = w.total
	if !o.Unsplit {
		pt.Cats = roundCats(w.cats)
	}
	if w.total > o.Budget {
		pt.Unreachable = run.unreachable(n, o.Budget, !o.Lean)
	}
	if prevN < n && !o.Lean {
		pt.LateDependencies = c.lateDependencies(c.unitsBefore(prevN), c.unitsBefore(n))
	}
	m := min(int(r.shared[k]), modMin)
	// Units are disjoint and none starting before m changed, so what they
	// freed is what the view lacks before m.
	pt.Cached = c.plan.Tokens(m) - run.freed.sum(c.unitsBefore(m))
	pt.LookBack = r.lookBack(k, w)
}

// lateDependencies finds the act episodes among units [from, to) that
// declare a dependency on an episode the paper policy already evicted: the
// protocol allows it, and monotone eviction keeps the content out.
func (c *replayCtx) lateDependencies(from, to int) []LateDependency {
	var late []LateDependency
	run := c.paper
	for u := from; u < to; u++ {
		e := &run.eps[u]
		if e.Kind != KindAct {
			continue
		}
		for _, d := range e.Deps {
			if lv := run.level[d]; lv > 0 {
				late = append(late, LateDependency{Act: u, Dependency: d, Level: int(lv)})
			}
		}
	}
	return late
}

// unitsBefore counts the episodes that start before message m. No
// episode starts past the context's last message, so the count past the
// end is the count at the end.
func (c *replayCtx) unitsBefore(m int) int {
	return int(c.unitsAt[min(m, len(c.unitsAt)-1)])
}

// unreachable measures by how much the paper policy stays over budget
// and, with blockers, names what keeps it there.
func (run *paperRun) unreachable(n, budget int, blockers bool) *Unreachable {
	p := run.p
	pro := min(n, run.prologue)
	un := &Unreachable{Over: run.w.total - budget, Protected: int(p.protP[n] + (p.prefix[pro] - p.protP[pro]))}
	if !blockers {
		return un
	}
	if len(run.eps) == 0 {
		un.Blockers = append(un.Blockers, Blocker{Kind: BlockNoEpisodes, Episode: -1})
	}
	if un.Protected > 0 {
		un.Blockers = append(un.Blockers, Blocker{Kind: BlockProtected, Episode: -1})
	}
	for u := run.alive.find(0); u < len(run.eps) && run.eps[u].Start < n; u = run.alive.find(u + 1) {
		e := &run.eps[u]
		switch {
		case e.Open(n):
			un.Blockers = append(un.Blockers, Blocker{Kind: BlockActive, Episode: u})
		case e.Kind == KindExpl:
			un.Blockers = append(un.Blockers, Blocker{Kind: BlockDependency, Episode: u, By: run.aliveDependents(u, n)})
		case e.Kind == KindUnannotated:
			un.Blockers = append(un.Blockers, Blocker{Kind: BlockUnannotated, Episode: u, By: run.aliveActsAfter(e.Start, n)})
		}
	}
	return un
}

func (run *paperRun) aliveDependents(u, n int) []int {
	var by []int
	for _, d := range run.dependents[u] {
		if run.eps[d].Start < n && run.level[d] < LevelFull {
			by = append(by, int(d))
		}
	}
	return by
}

func (run *paperRun) aliveActsAfter(start, n int) []int {
	var by []int
	for _, a := range run.acts {
		if e := &run.eps[a]; e.Start < n && e.Start > start && run.level[a] < LevelFull {
			by = append(by, int(a))
		}
	}
	return by
}

// takeLog returns and clears what the work logged: messages removed, and
// blocks removed from messages that remain.
func (w *work) takeLog() ([]int, [][2]int) {
	var msgs []int
	var blocks [][2]int
	for _, i := range w.logM {
		msgs = append(msgs, int(i))
	}
	for _, b := range w.logB {
		i := w.p.bMsg[b]
		if !w.gone[i] {
			blocks = append(blocks, [2]int{int(i), int(b - w.p.mFirst[i])})
		}
	}
	w.logB, w.logM = w.logB[:0], w.logM[:0]
	return msgs, blocks
}

// lookBack counts the calls of request k made again whose earlier call is gone
// from the view in w.
func (r *Replayer) lookBack(k int, w *work) int {
	n := 0
	for _, b := range r.looks[k] {
		if !w.keep[b] || w.gone[w.p.bMsg[b]] {
			n++
		}
	}
	return n
}
