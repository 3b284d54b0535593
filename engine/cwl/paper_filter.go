package cwl

import (
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// FilterPaper runs the paper policy once over msgs with declared episodes,
// as the next LLM request would see them, and reports it in the vector
// format. Each chunk record lists the paper levels that removed something,
// named "reasoning", "bulk", "intermediate" and "full", with the
// reference's counters. A window ≤ 0 disables the filter.
func FilterPaper(msgs []*session.Message, window int, limit *Limit, l *tokens.Ledger) FilterResult {
	res := unfiltered(len(msgs))
	if window <= 0 {
		return res
	}
	p := NewPlan(msgs, nil, l, nil)
	eps := DeclaredEpisodes(p)
	g, err := BuildGraph(eps)
	if err != nil { // DeclaredEpisodes only links earlier expl episodes
		return res
	}
	run := newPaperRun(p, eps, g)
	run.w.logging = true
	res.Threshold = Threshold(window, limit)
	res.TokensBefore = p.Tokens(len(msgs))
	byEp := map[int]int{}
	run.request(len(msgs), res.Threshold, func(ep, lv, freed int) {
		k, ok := byEp[ep]
		if !ok {
			e := &eps.List[ep]
			deps := e.Dependencies
			if deps == nil {
				deps = []string{}
			}
			k = len(res.ChunkStats)
			byEp[ep] = k
			res.ChunkStats = append(res.ChunkStats, ChunkStats{ChunkName: e.Name, ChunkKind: e.Kind, Dependencies: deps, Steps: []StepStats{}})
		}
		st := run.stepStats(lv, freed)
		cs := &res.ChunkStats[k]
		cs.Steps = append(cs.Steps, st)
		cs.FullyRemoved = lv == LevelFull
	})
	res.TokensAfter = run.w.total
	res.View = run.w.view()
	return res
}

// stepStats turns the work's log of one level into reference-style
// counters, and clears the log.
func (run *paperRun) stepStats(lv, freed int) StepStats {
	w, p := run.w, run.p
	st := StepStats{Step: LevelNames[lv], TokensAfter: w.total, TokensBefore: w.total + freed, RemovedFilePaths: []string{}}
	count := func(b int32) {
		switch p.bType[b] {
		case session.BlockThinking, session.BlockOpaque:
			st.RemovedThinkingBlocks++
		case session.BlockToolCall:
			st.RemovedToolCalls++
			st.ToolCallCounts.Add(p.bName[b])
			if p.bClass[b] == ClassRead && p.bPath[b] != "" {
				st.RemovedFilePaths = append(st.RemovedFilePaths, p.bPath[b])
			}
		case session.BlockToolResult:
			st.RemovedToolResults++
		}
	}
	for _, b := range w.logB {
		count(b)
	}
	for _, i := range w.logM {
		if p.mKind[i] == msgAssistant {
			st.RemovedAssistantMessages++
		}
		for b := p.mFirst[i]; b < p.mFirst[i+1]; b++ {
			if w.keep[b] {
				count(b)
			}
		}
	}
	w.logB, w.logM = w.logB[:0], w.logM[:0]
	return st
}
