package cwl

import (
	"sort"

	"ctxscope/engine/session"
)

// Policy names.
const (
	PolicyPaper    = "paper"    // the paper's Algorithm 1 (the default)
	PolicyPiCWL    = "pi-cwl"   // the reference implementation, byte for byte
	PolicyNone     = "none"     // no eviction: the uncapped baseline
	PolicyTruncate = "truncate" // drop the oldest non-user content
	PolicyCompact  = "compact"  // summary compaction at a fraction of the window
)

// Paper levels (paper §4.4), applied in order to one episode at a time.
const (
	LevelReasoning    = 1 // thinking blocks; exploration episodes only
	LevelBulk         = 2 // search and listing tool calls and their output
	LevelIntermediate = 3 // reads and shell commands and their output
	LevelFull         = 4 // the whole episode; an expl episode keeps its description
)

// LevelNames names the paper levels, indexed by level.
var LevelNames = [...]string{"", "reasoning", "bulk", "intermediate", "full"}

// paperRun is the paper policy's persistent state over the requests of
// one context: eviction only ever deepens (monotone), and the episode
// graph only grows as requests reveal episodes.
type paperRun struct {
	p          *Plan
	eps        []Episode
	prologue   int
	w          *work
	level      []uint8   // per episode: the deepest level applied
	dependents [][]int32 // expl → act episodes that depend on it
	acts       []int32   // act episodes, in order
	alive      skipList  // episodes not fully evicted
	aliveActs  skipList  // positions in acts not fully evicted
	freed      fenwick   // tokens freed from each episode so far
}

func newPaperRun(p *Plan, eps *Episodes, g *Graph) *paperRun {
	r := &paperRun{p: p, eps: eps.List, prologue: eps.Prologue, w: newWork(p), level: make([]uint8, len(eps.List)),
		dependents: make([][]int32, len(eps.List))}
	for id := range eps.List {
		for _, d := range g.Dependents(id) {
			r.dependents[id] = append(r.dependents[id], int32(d))
		}
		if eps.List[id].Kind == KindAct {
			r.acts = append(r.acts, int32(id))
		}
	}
	r.alive, r.aliveActs, r.freed = newSkipList(len(r.eps)), newSkipList(len(r.acts)), newFenwick(len(r.eps))
	r.w.begin(0)
	return r
}

// reset forgets every eviction (a request that is not an extension of the
// previous one, which only malformed request order produces).
func (r *paperRun) reset() {
	r.w.begin(0)
	for i := range r.level {
		r.level[i] = 0
	}
	r.alive.reset(len(r.eps))
	r.aliveActs.reset(len(r.acts))
	r.freed.clear()
}

// request brings the context to n messages and evicts until the view fits
// the budget or nothing is eligible. It calls onStep after each level that
// removed something.
func (r *paperRun) request(n, budget int, onStep func(ep, level, freed int)) {
	if n < r.w.n {
		r.reset()
	}
	r.w.grow(n)
	for r.w.total > budget {
		c := r.candidate(n)
		if c < 0 {
			return
		}
		lv := int(r.level[c]) + 1
		if lv == LevelReasoning && r.eps[c].Kind == KindAct {
			lv = LevelBulk
		}
		before := r.w.total
		removed := r.apply(c, lv)
		r.setLevel(c, lv)
		r.freed.add(c, before-r.w.total)
		if removed && onStep != nil {
			onStep(c, lv, before-r.w.total)
		}
	}
}

// candidate returns the oldest eligible act episode, else the oldest
// eligible expl episode or unannotated run, or -1. Eligible: closed, not
// fully evicted, and for an expl episode no dependent act left in
// context; unannotated content waits until every act episode after it is
// fully evicted. Acts are looked for in their own list first: a scan of
// every episode for one passes over every expl episode left whenever no
// act is eligible, and that is at every eviction once the acts are gone.
func (r *paperRun) candidate(n int) int {
	for i := r.aliveActs.find(0); i < len(r.acts); i = r.aliveActs.find(i + 1) {
		e := &r.eps[r.acts[i]]
		if e.Start >= n {
			break
		}
		if e.ClosedAt >= 0 && e.ClosedAt < n {
			return int(r.acts[i])
		}
	}
	for u := r.alive.find(0); u < len(r.eps) && r.eps[u].Start < n; u = r.alive.find(u + 1) {
		e := &r.eps[u]
		if e.Kind == KindAct || e.ClosedAt < 0 || e.ClosedAt >= n {
			continue
		}
		if e.Kind == KindExpl {
			if r.heldBy(u, n) < 0 {
				return u
			}
		} else if r.actAfter(e.Start, n) < 0 {
			return u
		}
	}
	return -1
}

// setLevel records episode u's new level; a fully evicted episode leaves
// the alive lists.
func (r *paperRun) setLevel(u, lv int) {
	r.level[u] = uint8(lv)
	if lv < LevelFull {
		return
	}
	r.alive.remove(u)
	if r.eps[u].Kind == KindAct {
		r.aliveActs.remove(sort.Search(len(r.acts), func(i int) bool { return int(r.acts[i]) >= u }))
	}
}

// heldBy returns a dependent act of expl episode u still in context, or -1.
func (r *paperRun) heldBy(u, n int) int {
	for _, d := range r.dependents[u] {
		if r.eps[d].Start < n && r.level[d] < LevelFull {
			return int(d)
		}
	}
	return -1
}

// actAfter returns an act episode starting after message start that is
// still in context, or -1.
func (r *paperRun) actAfter(start, n int) int {
	i := sort.Search(len(r.acts), func(i int) bool { return r.eps[r.acts[i]].Start > start })
	if i = r.aliveActs.find(i); i < len(r.acts) && r.eps[r.acts[i]].Start < n {
		return int(r.acts[i])
	}
	return -1
}

// apply evicts episode u at one level and reports whether anything left.
func (r *paperRun) apply(u, lv int) bool {
	e := &r.eps[u]
	w, p := r.w, r.p
	drops := w.drops
	switch lv {
	case LevelReasoning:
		for i := e.Start; i <= e.End; i++ {
			if w.gone[i] || p.mKind[i] != msgAssistant {
				continue
			}
			for b := p.mFirst[i]; b < p.mFirst[i+1]; b++ {
				// Reasoning is readable thinking and opaque (encrypted)
				// reasoning alike.
				if w.keep[b] && (p.bType[b] == session.BlockThinking || p.bType[b] == session.BlockOpaque) {
					w.rebuild(i)
					w.dropBlock(b)
				}
			}
		}
	case LevelBulk:
		r.stripClass(e, ClassSearch, ClassSearch)
	case LevelIntermediate:
		r.stripClass(e, ClassRead, ClassShell)
	case LevelFull:
		r.removeAll(e)
	}
	return w.drops != drops
}

// stripClass drops the range's tool calls of classes a or b and every
// result of them.
func (r *paperRun) stripClass(e *Episode, a, b ToolClass) {
	w, p := r.w, r.p
	if e.End < e.Start {
		return
	}
	for _, k := range p.calls[p.mCall[e.Start]:p.mCall[e.End+1]] {
		if !w.keep[k] || (p.bClass[k] != a && p.bClass[k] != b) || w.gone[p.bMsg[k]] {
			continue
		}
		w.rebuild(int(p.bMsg[k]))
		w.dropBlock(k)
		w.dropGroupResults(p.bGroup[k])
	}
}

// removeAll removes the episode's messages except user turns, and the
// results of its calls wherever they are. A declared expl episode keeps
// its end delimiter call and result: the description is its only trace.
func (r *paperRun) removeAll(e *Episode) {
	w, p := r.w, r.p
	keepTrace := e.Kind == KindExpl && e.TraceMsg >= 0
	for i := e.Start; i <= e.End; i++ {
		if w.gone[i] || p.protected(i) || (keepTrace && i == e.TraceResult) {
			continue
		}
		if keepTrace && i == e.TraceMsg {
			keep := p.mFirst[i] + int32(e.TraceBlock)
			for k := p.mFirst[i]; k < p.mFirst[i+1]; k++ {
				if k != keep && w.keep[k] {
					w.rebuild(i)
					r.dropWithResults(k)
				}
			}
			continue
		}
		for _, k := range p.calls[p.mCall[i]:p.mCall[i+1]] {
			if w.keep[k] {
				w.dropGroupResults(p.bGroup[k])
			}
		}
		w.dropMsg(i)
	}
}

func (r *paperRun) dropWithResults(k int32) {
	if r.p.bType[k] == session.BlockToolCall {
		r.w.dropGroupResults(r.p.bGroup[k])
	}
	r.w.dropBlock(k)
}
