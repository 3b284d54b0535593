package cwl

// piFast holds the effect of each reference step on each segment,
// measured once with the segment alone. When no two segments touch the
// same message (always, for histories the reference tool wrote), a pass
// is then arithmetic over these numbers: the steps of a segment remove
// the same blocks whatever else was evicted before. Passes fall back to
// the exact simulation whenever that cannot be guaranteed.
type piFast struct {
	tok  []int32   // per segment×step: tokens the step frees
	cats []float64 // per segment×step×category: what the step frees, by category
	has  []bool    // per segment×step: the step removes something (entire: it ran)
	// all* aggregate every step of a segment, for segments a pass
	// processes whole.
	allTok  []int32
	allCats []float64
	allLv   []uint8 // the level a whole processing leaves
	reach   []int   // per segment: the last message any of its steps touches
	bSeg    []int32 // per block: the segment whose step drops it, -1 for none
	bLv     []uint8 // per block: that step
	mSeg    []int32 // per message: the segment whose step deletes it, -1 for none
	mLv     []uint8
}

const lvSlots = int(lvEntire) + 1

// buildFast measures every segment alone. It leaves pp.fast nil when two
// segments touch the same message.
func (pp *piPasser) buildFast() {
	p, w := pp.w.p, pp.w
	f := &piFast{tok: make([]int32, len(pp.segs)*lvSlots), cats: make([]float64, len(pp.segs)*lvSlots*numCats),
		has: make([]bool, len(pp.segs)*lvSlots), reach: make([]int, len(pp.segs)),
		allTok: make([]int32, len(pp.segs)), allCats: make([]float64, len(pp.segs)*numCats), allLv: make([]uint8, len(pp.segs)),
		bSeg: make([]int32, len(p.bMsg)), bLv: make([]uint8, len(p.bMsg)), mSeg: make([]int32, len(p.Msgs)), mLv: make([]uint8, len(p.Msgs))}
	for i := range f.bSeg {
		f.bSeg[i] = -1
	}
	for i := range f.mSeg {
		f.mSeg[i] = -1
	}
	logging := w.logging
	w.logging = true
	defer func() { w.logging = logging }()
	for s := range pp.segs {
		if !pp.measure(f, s) {
			return
		}
	}
	pp.fast = f
}

// measure runs segment s's steps alone on a fresh view and records them.
func (pp *piPasser) measure(f *piFast, s int) bool {
	w, p := pp.w, pp.w.p
	w.begin(len(p.Msgs))
	w.logB, w.logM = w.logB[:0], w.logM[:0]
	seg := &pp.segs[s]
	first := lvSearch
	if seg.Kind == KindExpl {
		first = lvThinking
	}
	for lv := first; lv <= lvEntire; lv++ {
		if !pp.located(seg) {
			continue
		}
		tok, cats := w.total, w.cats
		var st StepStats
		switch lv {
		case lvThinking:
			pp.stripThinking(seg, &st)
		case lvEntire:
			pp.removeRange(seg)
		default:
			pp.stripTools(seg, lv-lvThinking, &st)
		}
		if !f.record(w, s, lv, tok, cats, lv == lvEntire || st.removed()) {
			return false
		}
		w.logB, w.logM = w.logB[:0], w.logM[:0]
	}
	return true
}

// record stores what step lv of segment s did to the work: the tokens
// and categories it freed (from tok and cats before it) and which blocks
// and messages it dropped. It reports false when another segment already
// dropped one of them.
func (f *piFast) record(w *work, s int, lv uint8, tok int, cats [numCats]float64, has bool) bool {
	slot := s*lvSlots + int(lv)
	f.tok[slot] = int32(tok - w.total)
	for c := range numCats {
		f.cats[slot*numCats+c] = cats[c] - w.cats[c]
		f.allCats[s*numCats+c] += f.cats[slot*numCats+c]
	}
	f.has[slot] = has
	f.allTok[s] += f.tok[slot]
	if has {
		f.allLv[s] = lv
	}
	for _, b := range w.logB {
		if f.bSeg[b] >= 0 && int(f.bSeg[b]) != s {
			return false
		}
		f.bSeg[b], f.bLv[b] = int32(s), lv
		f.reach[s] = max(f.reach[s], int(w.p.bMsg[b]))
	}
	for _, i := range w.logM {
		if f.mSeg[i] >= 0 && int(f.mSeg[i]) != s {
			return false
		}
		f.mSeg[i], f.mLv[i] = int32(s), lv
		f.reach[s] = max(f.reach[s], int(i))
	}
	return true
}

// fastSteps walks segment c's steps until the total is at most thr.
func (pp *piPasser) fastSteps(c, thr int, total *int, cats *[numCats]float64) bool {
	f := pp.fast
	first := lvSearch
	if pp.segs[c].Kind == KindExpl {
		first = lvThinking
	}
	for lv := first; lv <= lvEntire; lv++ {
		slot := c*lvSlots + int(lv)
		*total -= int(f.tok[slot])
		for k := range numCats {
			cats[k] -= f.cats[slot*numCats+k]
		}
		if f.has[slot] {
			pp.level[c] = lv
		}
		if *total <= thr {
			return true
		}
	}
	return false
}

// evictedFast reports whether block b is out of the input after the last
// fast pass.
func (pp *piPasser) evictedFast(b int32) bool {
	f := pp.fast
	if s := f.bSeg[b]; s >= 0 && pp.level[s] >= f.bLv[b] {
		return true
	}
	i := pp.w.p.bMsg[b]
	s := f.mSeg[i]
	return s >= 0 && pp.level[s] >= f.mLv[i]
}
