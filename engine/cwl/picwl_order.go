package cwl

import "sort"

// A reference pass processes segments in an order that does not depend on
// the threshold: the candidate rule looks only at which segments are
// complete, which depend on which, and which the pass has processed. The
// threshold only decides where the pass stops. So for one structure of
// the input (which segments are present, which complete) the whole order
// is computed once, with cumulative token sums, and each request's pass is
// a binary search for its stopping point. Between consecutive requests of
// one structure only the segments between the old and the new stopping
// points change level.

// piOrder is the full processing order of one input structure.
type piOrder struct {
	np, nc   int       // segments present and complete: the structure's key
	segs     []int32   // processing order when nothing stops the pass
	cum      []int64   // cum[i]: tokens freed by segs[:i] processed whole
	cumCats  []float64 // (len(segs)+1) × categories
	reach    []int     // reach[i]: the last message touched by segs[:i+1]
	blockers []segBlocker
	// prev is the order in use when this one was built (the structure
	// before it) and lcp the length of their common prefix: a pass moving
	// from prev to this order keeps the levels of that prefix.
	prev *piOrder
	lcp  int
	// mapped caches the blockers in episode terms, without and with the
	// protected-content blocker (filled by the replay).
	mapped [2][]Blocker
}

// commonPrefix returns the length of the common prefix of a's and b's
// processing orders.
func commonPrefix(a, b *piOrder) int {
	if b.prev == a {
		return b.lcp
	}
	n := 0
	for n < len(a.segs) && n < len(b.segs) && a.segs[n] == b.segs[n] {
		n++
	}
	return n
}

// segBlocker is a blocker in segment terms, for a pass that processed
// everything eligible.
type segBlocker struct {
	kind string
	seg  int
	by   []int32
}

// completed counts the segments complete within the first n messages.
func (pp *piPasser) completed(n int) int {
	if pp.closes == nil {
		pp.closes = append([]int(nil), pp.close...)
		sort.Ints(pp.closes)
	}
	return sort.SearchInts(pp.closes, n)
}

// orderFor returns the processing order of the input of n messages.
// Orders are kept per structure for the life of the passer: they do not
// depend on the budget, so re-replays at another budget reuse them all.
func (pp *piPasser) orderFor(n int) (*piOrder, bool) {
	np, nc := pp.present(n), pp.completed(n)
	key := [2]int{np, nc}
	if o := pp.orders[key]; o != nil {
		return o, false
	}
	f := pp.fast
	o := &piOrder{np: np, nc: nc}
	pp.countPending(n)
	for {
		c := pp.candidate(n)
		if c < 0 {
			break
		}
		o.segs = append(o.segs, int32(c))
		pp.markEvicted(pp.si.name[c], n)
	}
	o.cum = make([]int64, len(o.segs)+1)
	o.cumCats = make([]float64, (len(o.segs)+1)*numCats)
	o.reach = make([]int, len(o.segs))
	for i, s := range o.segs {
		o.cum[i+1] = o.cum[i] + int64(f.allTok[s])
		for k := range numCats {
			o.cumCats[(i+1)*numCats+k] = o.cumCats[i*numCats+k] + f.allCats[int(s)*numCats+k]
		}
		o.reach[i] = f.reach[s]
		if i > 0 {
			o.reach[i] = max(o.reach[i], o.reach[i-1])
		}
	}
	o.blockers = pp.segBlockers(n)
	if prev := pp.lastOrder; prev != nil {
		o.lcp = commonPrefix(prev, o)
		o.prev = prev
	}
	if pp.orders == nil {
		pp.orders = map[[2]int]*piOrder{}
	}
	pp.orders[key] = o
	return o, true
}

// segBlockers lists what keeps segments out of the current pass: open
// segments, and segments held by dependents that are still in.
func (pp *piPasser) segBlockers(n int) []segBlocker {
	var out []segBlocker
	for s := range pp.np {
		id := pp.si.name[s]
		switch {
		case pp.close[s] >= n:
			out = append(out, segBlocker{kind: BlockActive, seg: s})
		case !pp.evicted[id] && pp.pending[id] > 0:
			var by []int32
			for _, d := range pp.si.rev[id] {
				if int(d) < pp.np && !pp.evicted[pp.si.name[d]] {
					by = append(by, d)
				}
			}
			out = append(out, segBlocker{kind: BlockDependency, seg: s, by: by})
		}
	}
	return out
}

// orderPass runs a pass through the cached order of the input's
// structure. It reports false when a processed segment's effects reach
// past the input, and the exact pass must run instead.
func (pp *piPasser) orderPass(n, thr int) bool {
	o, _ := pp.orderFor(n)
	p := pp.w.p
	total := p.Tokens(n)
	stop, partial := 0, false // segments processed whole; one more partly
	if need := int64(total - thr); need > 0 {
		stop = sort.Search(len(o.segs), func(i int) bool { return o.cum[i+1] >= need })
		partial = stop < len(o.segs)
	}
	last := stop
	if partial {
		last++
	}
	if last > 0 && o.reach[last-1] >= n {
		return false
	}
	pp.relevel(o, n, stop, last)
	var cats [numCats]float64
	copy(cats[:], p.pBrk[n*numCats:(n+1)*numCats])
	total -= int(o.cum[stop])
	for k := range numCats {
		cats[k] -= o.cumCats[stop*numCats+k]
	}
	if partial {
		s := int(o.segs[stop])
		before, lv := total, pp.level[s]
		pp.level[s] = lvNone
		pp.fastSteps(s, thr, &total, &cats)
		got := pp.level[s]
		pp.level[s] = lv
		pp.setLevel(s, got, before-total)
	}
	pp.lastOrder, pp.lastStop, pp.lastLast = o, stop, last
	pp.total, pp.cats = total, cats
	return true
}

// relevel gives the segments of o their levels for a pass that processes
// o.segs[:stop] whole, touching only what differs from the last pass
// (the partly processed segment at stop is set by the caller).
func (pp *piPasser) relevel(o *piOrder, n, stop, last int) {
	pp.changed = pp.changed[:0]
	if pp.dirty { // levels left by an exact pass
		for s := range pp.present(max(n, pp.lastN)) {
			pp.setLevel(s, lvNone, 0)
		}
		pp.dirty = false
	}
	pp.lastN = max(pp.lastN, n)
	from := 0
	if pp.lastOrder == o {
		for i := last; i < pp.lastLast; i++ {
			pp.setLevel(int(o.segs[i]), lvNone, 0)
		}
		from = min(pp.lastStop, stop)
	} else if prev := pp.lastOrder; prev != nil {
		keep := min(commonPrefix(prev, o), pp.lastStop, stop)
		for _, s := range prev.segs[keep:pp.lastLast] {
			pp.setLevel(int(s), lvNone, 0)
		}
		from = keep
	}
	f := pp.fast
	for i := from; i < stop; i++ {
		s := o.segs[i]
		pp.setLevel(int(s), f.allLv[s], int(f.allTok[s]))
	}
}

// setLevel records a segment's level and freed tokens, keeping the list
// of segments this pass changed and the freed-token index up to date.
func (pp *piPasser) setLevel(s int, lv uint8, freed int) {
	if pp.level[s] == lv && pp.freed[s] == freed {
		return
	}
	pp.changed = append(pp.changed, int32(s))
	pp.fenAdd(s, freed-pp.freed[s])
	pp.level[s], pp.freed[s] = lv, freed
}

// fenAdd adds d to segment s's freed tokens in the Fenwick tree.
func (pp *piPasser) fenAdd(s, d int) {
	if pp.fen == nil {
		pp.fen = make([]int64, len(pp.segs)+1)
	}
	for i := s + 1; i < len(pp.fen); i += i & -i {
		pp.fen[i] += int64(d)
	}
}

// freedBefore sums the freed tokens of segments [0, s).
func (pp *piPasser) freedBefore(s int) int {
	var t int64
	for i := s; i > 0; i -= i & -i {
		t += pp.fen[i]
	}
	return int(t)
}

func (o *piOrder) blockersOrNil() []segBlocker {
	if o == nil {
		return nil
	}
	return o.blockers
}
