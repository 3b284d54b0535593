package cwl

import (
	"math"
	"sort"
)

// levelOfStep maps the reference's steps onto the paper's levels.
var levelOfStep = [...]int{0, LevelReasoning, LevelBulk, LevelIntermediate, LevelIntermediate, LevelFull}

// stepPi runs one stateless reference pass for request k. Evictions are
// reported where a unit's level rises above what the previous pass left;
// a unit whose level falls was restored (the reference's resurrection).
func (r *Replayer) stepPi(k int, c *replayCtx, pt *Point, o RunOptions) {
	pp, n := c.pi, pt.Messages
	pp.w.logging = o.Detail
	pp.pass(n, o.Budget)
	pt.After = pp.total
	pt.Cats = roundCats(pp.cats)
	modMin := math.MaxInt
	for _, s := range pp.changed {
		lv, prev := pp.level[s], c.prevLevel[s]
		if lv == prev {
			continue
		}
		modMin = min(modMin, pp.segs[s].Start)
		c.prevLevel[s] = lv
		if lv < prev {
			pt.Restored = append(pt.Restored, LevelChange{Episode: c.segToEp[s], Level: levelOfStep[lv]})
			continue
		}
		ev := Eviction{Episode: c.segToEp[s], Level: levelOfStep[lv], Step: stepOfLevel[lv], Freed: pp.freed[s]}
		if o.Detail {
			ev.Messages, ev.Blocks = pp.logOf(int(s))
		}
		pt.Evictions = append(pt.Evictions, ev)
	}
	if pp.total > o.Budget {
		pt.Unreachable = c.piUnreachable(n, o.Budget)
	}
	sort.Slice(pt.Evictions, func(i, j int) bool { return pt.Evictions[i].Episode < pt.Evictions[j].Episode })
	sort.Slice(pt.Restored, func(i, j int) bool { return pt.Restored[i].Episode < pt.Restored[j].Episode })
	// Segments are disjoint and none starting before m changed, so what
	// they freed is what the view lacks before m.
	m := min(int(r.shared[k]), modMin)
	pt.Cached = c.plan.Tokens(m) - pp.freedBefore(pp.present(m))
	if pp.wasFast {
		for _, b := range r.looks[k] {
			if pp.evictedFast(b) {
				pt.LookBack++
			}
		}
	} else {
		pt.LookBack = r.lookBack(k, pp.w)
	}
}

// piUnreachable names what keeps the reference over budget: open
// segments, segments held by dependents, and the immune prologue and gaps.
func (c *replayCtx) piUnreachable(n, budget int) *Unreachable {
	pp, p := c.pi, c.plan
	un := &Unreachable{Over: pp.total - budget, Protected: int(p.protP[n] + c.immuneP[n])}
	prot := 0
	if un.Protected > 0 {
		prot = 1
	}
	if o := pp.lastOrder; pp.wasFast && o != nil {
		// Blockers depend only on the structure: map them once per order.
		if o.mapped[prot] == nil {
			o.mapped[prot] = c.mapBlockers(o.blockers, prot == 1)
		}
		un.Blockers = o.mapped[prot]
		return un
	}
	un.Blockers = c.mapBlockers(pp.segBlockers(n), prot == 1)
	return un
}

// mapBlockers turns segment blockers into episode blockers, after the
// blockers that are not episodes.
func (c *replayCtx) mapBlockers(bs []segBlocker, protected bool) []Blocker {
	out := []Blocker{}
	if len(c.pi.segs) == 0 {
		out = append(out, Blocker{Kind: BlockNoEpisodes, Episode: -1})
	}
	if protected {
		out = append(out, Blocker{Kind: BlockProtected, Episode: -1})
	}
	for _, b := range bs {
		bl := Blocker{Kind: b.kind, Episode: c.segToEp[b.seg]}
		for _, d := range b.by {
			bl.By = append(bl.By, c.segToEp[d])
		}
		out = append(out, bl)
	}
	return out
}

// logOf returns the messages and blocks the last pass removed while
// processing segment s.
func (pp *piPasser) logOf(s int) ([]int, [][2]int) {
	for _, f := range pp.logFrom {
		if f.seg != s {
			continue
		}
		w := pp.w
		var msgs []int
		var blocks [][2]int
		for _, i := range w.logM[f.m0:f.m1] {
			msgs = append(msgs, int(i))
		}
		for _, b := range w.logB[f.b0:f.b1] {
			i := w.p.bMsg[b]
			if !w.gone[i] {
				blocks = append(blocks, [2]int{int(i), int(b - w.p.mFirst[i])})
			}
		}
		return msgs, blocks
	}
	return nil, nil
}
