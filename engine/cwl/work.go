package cwl

// work is the mutable view of a plan prefix that eviction edits: which
// blocks and messages remain, which assistant messages were rebuilt, and
// the running token total. Everything it changes is logged, so that reset
// costs what the last pass touched rather than the whole plan.
type work struct {
	p       *Plan
	n       int // the prefix length: messages [0, n) are in the input
	keep    []bool
	gone    []bool
	rebuilt []bool
	units   []int32
	kept    []int32
	tok     []int32
	total   int
	cats    [numCats]float64 // the view's tokens by category

	touchedM []int32
	touchedB []int32

	// When logging, every dropped block and message is appended here.
	drops   int // blocks and messages dropped so far
	logging bool
	logB    []int32
	logM    []int32
	// noCats leaves cats alone (stale) until the next begin: a run whose
	// points carry no split (RunOptions.Unsplit) spares its accounting.
	noCats bool
}

func newWork(p *Plan) *work {
	nb := len(p.bMsg)
	nm := len(p.Msgs)
	w := &work{p: p, keep: make([]bool, nb), gone: make([]bool, nm), rebuilt: make([]bool, nm),
		units: make([]int32, nm), kept: make([]int32, nm), tok: make([]int32, nm)}
	for b := range w.keep {
		w.keep[b] = true
	}
	for i := range nm {
		w.resetMsg(i)
	}
	return w
}

func (w *work) resetMsg(i int) {
	p := w.p
	var u int32
	for b := p.mFirst[i]; b < p.mFirst[i+1]; b++ {
		u += p.bUnits[b]
	}
	w.units[i], w.kept[i], w.tok[i] = u, p.mFirst[i+1]-p.mFirst[i], p.mTok[i]
	w.gone[i], w.rebuilt[i] = false, false
}

// begin starts a pass over the prefix [0, n) with nothing evicted.
func (w *work) begin(n int) {
	for _, b := range w.touchedB {
		w.keep[b] = true
	}
	for _, i := range w.touchedM {
		w.resetMsg(int(i))
	}
	w.touchedB, w.touchedM = w.touchedB[:0], w.touchedM[:0]
	w.n = n
	w.total = w.p.Tokens(n)
	copy(w.cats[:], w.p.pBrk[n*numCats:(n+1)*numCats])
}

// grow extends the prefix to n messages, keeping the eviction state; new
// messages count with whatever of them is still kept.
func (w *work) grow(n int) {
	for i := w.n; i < n; i++ {
		if !w.gone[i] {
			w.total += int(w.tok[i])
			if !w.noCats {
				w.addCats(i, 1)
			}
		}
	}
	w.n = n
}

// dropBlock removes block b from its message. It reports whether the
// message is now empty (and so deleted).
func (w *work) dropBlock(b int32) bool {
	if !w.keep[b] {
		return false
	}
	i := int(w.p.bMsg[b])
	w.markTouched(i)
	w.keep[b] = false
	w.drops++
	w.touchedB = append(w.touchedB, b)
	if w.logging {
		w.logB = append(w.logB, b)
	}
	p := w.p
	oldOver := float64(w.tok[i]) - p.weight(w.units[i])
	w.units[i] -= p.bUnits[b]
	w.kept[i]--
	t := p.tokensOf(w.units[i], w.kept[i])
	if !w.gone[i] && i < w.n {
		w.total += int(t - w.tok[i])
		// The block's weight leaves its category; the message's rounding
		// overhead (tokens beyond its blocks' weights) is charged to the
		// message's own category, as Ledger.Breakdown does.
		if !w.noCats {
			w.cats[p.bCat[b]] -= p.weight(p.bUnits[b])
			w.cats[p.mCat[i]] += float64(t) - p.weight(w.units[i]) - oldOver
		}
	}
	w.tok[i] = t
	if w.kept[i] == 0 {
		w.dropMsg(i)
		return true
	}
	return false
}

// dropMsg deletes message i from the view.
func (w *work) dropMsg(i int) {
	if w.gone[i] {
		return
	}
	w.markTouched(i)
	if i < w.n {
		w.total -= int(w.tok[i])
		if !w.noCats {
			w.addCats(i, -1)
		}
	}
	w.gone[i] = true
	w.drops++
	if w.logging {
		w.logM = append(w.logM, int32(i))
	}
}

// addCats adds (sign 1) or removes (sign -1) message i's current
// breakdown.
func (w *work) addCats(i int, sign float64) {
	p := w.p
	if w.kept[i] == p.mFirst[i+1]-p.mFirst[i] {
		for c := range numCats {
			w.cats[c] += sign * p.mBrk[i*numCats+c]
		}
		return
	}
	var sum float64
	for b := p.mFirst[i]; b < p.mFirst[i+1]; b++ {
		if w.keep[b] {
			wt := p.weight(p.bUnits[b])
			w.cats[p.bCat[b]] += sign * wt
			sum += wt
		}
	}
	w.cats[p.mCat[i]] += sign * (float64(w.tok[i]) - sum)
}

// markTouched logs message i for reset the first time a pass changes it.
func (w *work) markTouched(i int) {
	if !w.rebuilt[i] && !w.gone[i] && w.kept[i] == w.p.mFirst[i+1]-w.p.mFirst[i] {
		w.touchedM = append(w.touchedM, int32(i))
	}
}

// rebuild marks an assistant message as rebuilt by a stripping step.
func (w *work) rebuild(i int) {
	w.markTouched(i)
	w.rebuilt[i] = true
}

// dropGroupResults deletes every result block of id group g within the
// prefix. It returns how many were deleted.
func (w *work) dropGroupResults(g int32) int {
	n := 0
	for _, r := range w.p.groupResults[g] {
		if int(w.p.bMsg[r]) >= w.n {
			break
		}
		if w.keep[r] && !w.gone[w.p.bMsg[r]] {
			w.dropBlock(r)
			n++
		}
	}
	return n
}

// View lists the messages that remain, each with the indices of its kept
// blocks when a step rebuilt it (nil when it is sent unchanged).
func (w *work) view() []ViewEntry {
	out := make([]ViewEntry, 0, w.n)
	for i := 0; i < w.n; i++ {
		if w.gone[i] {
			continue
		}
		e := ViewEntry{I: i}
		if w.rebuilt[i] {
			e.Blocks = w.keptBlocks(i)
		}
		out = append(out, e)
	}
	return out
}

func (w *work) keptBlocks(i int) []int {
	bs := []int{}
	for b := w.p.mFirst[i]; b < w.p.mFirst[i+1]; b++ {
		if w.keep[b] {
			bs = append(bs, int(b-w.p.mFirst[i]))
		}
	}
	return bs
}

// ViewEntry is one message of a filtered context: history index I, and
// when the message was rebuilt, the indices of the blocks it keeps.
type ViewEntry struct {
	I      int   `json:"i"`
	Blocks []int `json:"blocks,omitempty"`
}

// isUserRef reports whether message i is what the reference calls a user
// message (role "user"): a typed turn. pi's bashExecution, custom and
// summary messages are not.
func (w *work) isUserRef(i int) bool { return w.p.mKind[i] == msgUser || w.p.mKind[i] == msgSystem }
