package cwl

import (
	"ctxscope/engine/session"
)

// This file is the pi-cwl compatibility policy: the reference's
// filterContext (context-filter.ts L708-1021) pass, byte for byte. See
// ../shared/reference/cwl-reference.md §2.

// segIndex is the plan's declared segments in a form passes can use
// without maps: interned names and dependency name ids.
type segIndex struct {
	name []int32   // name id of each segment
	deps [][]int32 // name ids of dependencies that name some segment
	byNm [][]int32 // segments of each name id
	rev  [][]int32 // segments that depend on each name id
}

func newSegIndex(segs []Segment) *segIndex {
	ids := map[string]int32{}
	si := &segIndex{}
	for _, s := range segs {
		id, ok := ids[s.Name]
		if !ok {
			id = int32(len(ids))
			ids[s.Name] = id
			si.byNm = append(si.byNm, nil)
		}
		si.name = append(si.name, id)
		si.byNm[id] = append(si.byNm[id], int32(len(si.name)-1))
	}
	for _, s := range segs {
		var d []int32
		for _, dep := range s.Dependencies {
			if id, ok := ids[dep]; ok {
				d = append(d, id)
			}
		}
		si.deps = append(si.deps, d)
	}
	si.rev = make([][]int32, len(si.byNm))
	for s, ds := range si.deps {
		for _, d := range ds {
			si.rev[d] = append(si.rev[d], int32(s))
		}
	}
	return si
}

// Pass levels: which reference step a segment reached.
const (
	lvNone uint8 = iota
	lvThinking
	lvSearch
	lvBash
	lvRead
	lvEntire
)

var stepOfLevel = [...]string{"", StepThinking, StepSearchTools, StepBashTools, StepReadTools, StepEntireChunk}

// pass filters the prefix [0, n) at threshold thr. It returns the tokens
// before and after and, when the passer keeps stats, the chunk stats in
// processing order. The view stays in p.w until the next pass.
func (pp *piPasser) pass(n, thr int) (before, after int, chunks []ChunkStats) {
	w := pp.w
	pp.wasFast = false
	if pp.fast != nil && !w.logging && !pp.stats && pp.orderPass(n, thr) {
		pp.wasFast = true
		return w.p.Tokens(n), pp.total, nil
	}
	defer pp.afterExact(n)
	w.begin(n)
	w.logB, w.logM, pp.logFrom = w.logB[:0], w.logM[:0], pp.logFrom[:0]
	before = w.total
	pp.clearLevels(n)
	if before <= thr {
		return before, before, nil
	}
	pp.countPending(n)
	for w.total > thr {
		c := pp.candidate(n)
		if c < 0 {
			break
		}
		tok, m0, b0 := w.total, len(w.logM), len(w.logB)
		cs, done := pp.process(c, thr)
		pp.freed[c] = tok - w.total
		if w.logging {
			pp.logFrom = append(pp.logFrom, logSpan{c, m0, len(w.logM), b0, len(w.logB)})
		}
		pp.markEvicted(pp.si.name[c], n)
		if pp.stats {
			chunks = append(chunks, cs)
		}
		if done {
			break
		}
	}
	return before, w.total, chunks
}

// candidate returns the eligible segment with the earliest start, or -1.
// Segments before pp.lo were ineligible when last looked at; one becomes
// eligible again only when markEvicted releases it, which lowers pp.lo.
func (pp *piPasser) candidate(n int) int {
	for s := pp.find(pp.lo); s < pp.np; s = pp.find(s + 1) {
		id := pp.si.name[s]
		if pp.close[s] < n && !pp.evicted[id] && pp.pending[id] == 0 {
			pp.lo = s
			return s
		}
	}
	pp.lo = pp.np
	return -1
}

// find returns the first segment at or after s not evicted in this pass.
func (pp *piPasser) find(s int) int {
	for int(pp.nxt[s]) != s {
		pp.nxt[s] = pp.nxt[pp.nxt[s]]
		s = int(pp.nxt[s])
	}
	return s
}

func (pp *piPasser) markEvicted(id int32, n int) {
	if pp.evicted[id] {
		return
	}
	pp.evicted[id] = true
	for _, s := range pp.si.byNm[id] {
		if int(s) < pp.np {
			pp.nxt[s] = s + 1
		}
		if pp.segs[s].Start < n {
			for _, d := range pp.si.deps[s] {
				pp.pending[d]--
				if pp.pending[d] == 0 && len(pp.si.byNm[d]) > 0 {
					pp.lo = min(pp.lo, int(pp.si.byNm[d][0]))
				}
			}
		}
	}
}

// process applies the steps of segment c until the total is at most thr.
// done reports that the pass is over (the threshold was met).
func (pp *piPasser) process(c, thr int) (ChunkStats, bool) {
	seg := &pp.segs[c]
	cs := ChunkStats{ChunkName: seg.Name, ChunkKind: seg.Kind, Dependencies: seg.Dependencies, Steps: []StepStats{}}
	if cs.Dependencies == nil {
		cs.Dependencies = []string{}
	}
	first := lvSearch
	if seg.Kind == KindExpl {
		first = lvThinking
	}
	for lv := first; lv < lvEntire; lv++ {
		if !pp.located(seg) {
			continue
		}
		st := StepStats{Step: stepOfLevel[lv], TokensBefore: pp.w.total, RemovedFilePaths: []string{}}
		if lv == lvThinking {
			pp.stripThinking(seg, &st)
		} else {
			pp.stripTools(seg, lv-lvThinking, &st)
		}
		st.TokensAfter = pp.w.total
		if st.removed() {
			pp.level[c] = lv
			if pp.stats {
				cs.Steps = append(cs.Steps, st)
			}
		}
		if pp.w.total <= thr {
			return cs, true
		}
	}
	if pp.located(seg) {
		st := StepStats{Step: StepEntireChunk, TokensBefore: pp.w.total, RemovedFilePaths: []string{}}
		removed, hadUser := pp.removeRange(seg)
		st.RemovedAssistantMessages = removed
		st.TokensAfter = pp.w.total
		cs.FullyRemoved = removed > 0 && !hadUser
		pp.level[c] = lvEntire
		if pp.stats {
			cs.Steps = append(cs.Steps, st)
		}
	}
	return cs, pp.w.total <= thr
}

// located reports whether the segment's start and end delimiter results
// are still in the view (mapRangeByAnchors).
func (pp *piPasser) located(seg *Segment) bool {
	return pp.loose || (!pp.w.gone[seg.Start] && !pp.w.gone[seg.End])
}

// stripThinking drops the thinking blocks of the range's assistant
// messages; a message that loses nothing is left as it was.
func (pp *piPasser) stripThinking(seg *Segment, st *StepStats) {
	w, p := pp.w, pp.w.p
	for i := seg.Start; i <= seg.End; i++ {
		if w.gone[i] || p.mKind[i] != msgAssistant {
			continue
		}
		for b := p.mFirst[i]; b < p.mFirst[i+1]; b++ {
			if w.keep[b] && p.bType[b] == session.BlockThinking {
				w.rebuild(i)
				st.RemovedThinkingBlocks++
				if w.dropBlock(b) {
					st.RemovedAssistantMessages++
				}
			}
		}
	}
}

// stripTools drops the tool calls of one reference set from every
// assistant message of the range (each rebuilt, even when it loses
// nothing), then every result of a dropped call anywhere in the view.
func (pp *piPasser) stripTools(seg *Segment, set uint8, st *StepStats) {
	w, p := pp.w, pp.w.p
	var groups []int32
	for i := seg.Start; i <= seg.End; i++ {
		if w.gone[i] || p.mKind[i] != msgAssistant {
			continue
		}
		w.rebuild(i)
		for b := p.mFirst[i]; b < p.mFirst[i+1]; b++ {
			if !w.keep[b] || p.bType[b] != session.BlockToolCall || p.bPi[b] != set {
				continue
			}
			st.RemovedToolCalls++
			if pp.stats {
				st.ToolCallCounts.Add(p.bName[b])
				if set == piRead && p.bPath[b] != "" {
					st.RemovedFilePaths = append(st.RemovedFilePaths, p.bPath[b])
				}
			}
			groups = append(groups, p.bGroup[b])
			if w.dropBlock(b) {
				st.RemovedAssistantMessages++
			}
		}
		if w.kept[i] == 0 && !w.gone[i] {
			w.dropMsg(i)
			st.RemovedAssistantMessages++
		}
	}
	for _, g := range groups {
		st.RemovedToolResults += w.dropGroupResults(g)
	}
}

// removeRange deletes every message of the range except user turns.
func (pp *piPasser) removeRange(seg *Segment) (removed int, hadUser bool) {
	w := pp.w
	for i := seg.Start; i <= seg.End; i++ {
		if w.gone[i] {
			continue
		}
		if w.isUserRef(i) {
			hadUser = true
			continue
		}
		w.dropMsg(i)
		removed++
	}
	return removed, hadUser
}
