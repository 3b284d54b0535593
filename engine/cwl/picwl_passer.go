package cwl

import (
	"math"
	"sort"
)

// piPasser runs reference passes over prefixes of one plan. It holds the
// scratch state so that repeated passes allocate nothing but their stats.
type piPasser struct {
	w       *work
	segs    []Segment
	close   []int // message index whose arrival completes each segment
	loose   bool  // segments without delimiter anchors (inferred episodes)
	si      *segIndex
	evicted []bool  // by name id
	pending []int32 // un-evicted dependents, by name id
	// level is the deepest step each segment reached in the last pass
	// (0 = untouched), by segment.
	level []uint8
	freed []int // tokens each segment's processing freed in the last pass
	stats bool
	// logFrom locates each segment's drops in the work's log, when it logs.
	logFrom []logSpan
	lo      int // no segment before lo is eligible
	fast    *piFast
	// total and cats are the last pass's result (the work holds the view
	// only after an exact pass).
	total   int
	cats    [numCats]float64
	wasFast bool // the last pass was a fast one; the work holds no view
	lastN   int  // the input length of the last pass
	np      int  // segments present in the current pass's input
	// nxt links each segment to the next one not yet evicted in this
	// pass (a path-compressed skip list), so candidate scans skip evicted
	// segments.
	nxt []int32

	// The order-based pass (picwl_order.go).
	closes    []int               // completion indices, sorted
	orders    map[[2]int]*piOrder // by (segments present, segments complete)
	lastOrder *piOrder
	lastStop  int     // segments of lastOrder the last pass processed whole
	lastLast  int     // ... whole or in part
	changed   []int32 // segments whose level the last pass may have changed
	fen       []int64 // Fenwick tree of freed tokens by segment
	dirty     bool    // an exact pass set levels the order does not know
}

// resetRun forgets the levels of the last pass (the cached order, which
// does not depend on the budget, stays).
func (pp *piPasser) resetRun() {
	for s := range pp.level {
		pp.level[s], pp.freed[s] = lvNone, 0
	}
	pp.fen = make([]int64, len(pp.segs)+1)
	pp.lastOrder, pp.lastStop, pp.lastLast, pp.lastN = nil, 0, 0, 0
	pp.dirty = false
	pp.changed = pp.changed[:0]
}

// afterExact brings the incremental state in line after an exact pass:
// every present segment may have changed.
func (pp *piPasser) afterExact(n int) {
	w := pp.w
	pp.total, pp.cats = w.total, w.cats
	pp.lastOrder, pp.lastStop, pp.lastLast = nil, 0, 0
	pp.dirty = true
	pp.changed = pp.changed[:0]
	pp.fen = make([]int64, len(pp.segs)+1)
	for s := range pp.present(max(n, pp.lastN)) {
		pp.changed = append(pp.changed, int32(s))
		if pp.freed[s] != 0 {
			pp.fenAdd(s, pp.freed[s])
		}
	}
}

// logSpan is where one segment's drops sit in the work's logs.
type logSpan struct{ seg, m0, m1, b0, b1 int }

// newPiPasser returns a passer over the plan's declared segments.
func newPiPasser(p *Plan, stats bool) *piPasser {
	cl := make([]int, len(p.Segments))
	for i, s := range p.Segments {
		cl[i] = math.MaxInt
		if s.Completed {
			cl[i] = s.End
		}
	}
	pp := newPiPasserFor(p, p.Segments, cl, false)
	pp.stats = stats
	return pp
}

// newPiPasserFor returns a passer over the given segments, each complete
// once message close[i] is in the input.
func newPiPasserFor(p *Plan, segs []Segment, close []int, loose bool) *piPasser {
	si := newSegIndex(segs)
	return &piPasser{w: newWork(p), segs: segs, close: close, loose: loose, si: si, evicted: make([]bool, len(si.byNm)),
		pending: make([]int32, len(si.byNm)), level: make([]uint8, len(si.name)), freed: make([]int, len(si.name)),
		fen: make([]int64, len(segs)+1)}
}

// clearLevels forgets the last pass's levels; only segments that started
// before the last pass's input end can hold any.
func (pp *piPasser) clearLevels(n int) {
	for s := range pp.segs[:min(len(pp.segs), pp.present(max(n, pp.lastN)))] {
		pp.level[s], pp.freed[s] = lvNone, 0
	}
	pp.lastN = n
}

// present returns how many segments start within the first n messages.
func (pp *piPasser) present(n int) int {
	return sort.Search(len(pp.segs), func(i int) bool { return pp.segs[i].Start >= n })
}

// countPending resets the pass's eviction marks and counts, per name, the
// segments in the prefix that depend on it.
func (pp *piPasser) countPending(n int) {
	np := pp.present(n)
	pp.np = np
	if pp.nxt == nil {
		pp.nxt = make([]int32, len(pp.segs)+1)
	}
	for s := 0; s <= np; s++ {
		pp.nxt[s] = int32(s)
	}
	for s := range np {
		id := pp.si.name[s]
		pp.evicted[id], pp.pending[id] = false, 0
		for _, d := range pp.si.deps[s] {
			pp.evicted[d], pp.pending[d] = false, 0
		}
	}
	for s := range np {
		for _, d := range pp.si.deps[s] {
			pp.pending[d]++
		}
	}
	pp.lo = 0
}
