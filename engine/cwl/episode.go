package cwl

import (
	"fmt"
	"slices"

	"ctxscope/engine/session"
)

// KindUnannotated marks content between declared episodes that no
// episode claims. The paper treats it as exploratory with unknown
// dependencies.
const KindUnannotated = "unannotated"

// EpisodeMode tells where episodes come from.
type EpisodeMode string

// Episode modes.
const (
	Declared EpisodeMode = "declared" // from delimiter calls in the session
	Inferred EpisodeMode = "inferred" // from tool use, for sessions without delimiter calls
)

// Episode is a unit of eviction: a declared or inferred episode, or a run
// of unannotated content, located in a context's messages.
type Episode struct {
	ID           int      `json:"id"`
	Name         string   `json:"name"`
	Kind         string   `json:"kind"` // expl, act or unannotated
	Inferred     bool     `json:"inferred,omitempty"`
	Dependencies []string `json:"dependencies,omitempty"` // as declared
	Deps         []int    `json:"deps,omitempty"`         // ids of the expl episodes depended on
	Description  string   `json:"description,omitempty"`
	// Start and End bound the episode's messages, inclusive. While the
	// episode is open End is the context's last message.
	Start int `json:"start"`
	End   int `json:"end"`
	// ClosedAt is the message whose arrival closes the episode (its end
	// delimiter result, or the first message after it); -1 if it never
	// closes in this context.
	ClosedAt int `json:"closedAt"`
	// TraceCall and TraceResult locate what full removal keeps of a
	// declared expl episode: the end delimiter call (block index within
	// its message, message index) and its result message. -1 when none.
	TraceMsg    int `json:"-"`
	TraceBlock  int `json:"-"`
	TraceResult int `json:"-"`
}

// Open reports whether the episode is active in the prefix of n messages.
func (e *Episode) Open(n int) bool { return e.Start < n && (e.ClosedAt < 0 || e.ClosedAt >= n) }

// Episodes is the episode structure of one context.
type Episodes struct {
	Mode EpisodeMode `json:"mode"`
	// Prologue is the number of leading messages that precede every
	// episode; they are never evicted.
	Prologue int       `json:"prologue"`
	List     []Episode `json:"episodes"`
	// Problems lists what did not fit the protocol (declared mode).
	Problems []string `json:"problems,omitempty"`
}

// DeclaredEpisodes turns the plan's delimiter segments into episodes for
// the paper policy. An episode's range starts at the assistant message
// that issued its start call (so that calls made alongside it go with it)
// and ends at its end result. Content between episodes becomes
// unannotated units; content before the first episode is the prologue.
func DeclaredEpisodes(p *Plan) *Episodes {
	eps := &Episodes{Mode: Declared, Prologue: len(p.Msgs)}
	byName := map[string]int{}
	prevEnd := -1
	for _, seg := range p.Segments {
		e := Episode{Name: seg.Name, Kind: seg.Kind, Dependencies: seg.Dependencies, Description: seg.Description,
			Start: max(callMessage(p, seg.Start), prevEnd+1), End: seg.End, ClosedAt: -1, TraceMsg: -1, TraceBlock: -1, TraceResult: -1}
		if e.Start > e.End || seg.Start <= prevEnd {
			eps.Problems = append(eps.Problems, fmt.Sprintf("episode %q overlaps the previous one; ignored", seg.Name))
			continue
		}
		if seg.Completed {
			e.ClosedAt = seg.End
			e.TraceMsg, e.TraceBlock, e.TraceResult = traceOf(p, seg.End)
		}
		if e.Kind != KindExpl && e.Kind != KindAct {
			eps.Problems = append(eps.Problems, fmt.Sprintf("episode %q has unknown type %q; treated as act", seg.Name, seg.Kind))
			e.Kind = KindAct
		}
		if e.Kind != KindAct && len(seg.Dependencies) > 0 {
			eps.Problems = append(eps.Problems, fmt.Sprintf("episode %q is not an act episode; its dependencies are ignored", seg.Name))
			seg.Dependencies = nil
		}
		for _, d := range seg.Dependencies {
			id, ok := byName[d]
			if !ok || eps.List[id].Kind != KindExpl {
				eps.Problems = append(eps.Problems, fmt.Sprintf("episode %q: dependency %q names no earlier exploration episode", seg.Name, d))
				continue
			}
			if !slices.Contains(e.Deps, id) {
				e.Deps = append(e.Deps, id)
			}
		}
		if eps.Prologue > e.Start {
			eps.Prologue = e.Start
		} else if e.Start > prevEnd+1 {
			eps.addGap(p, prevEnd+1, e.Start-1, e.Start)
		}
		e.ID = len(eps.List)
		byName[e.Name] = e.ID
		eps.List = append(eps.List, e)
		prevEnd = e.End
		if !seg.Completed {
			break // an open episode runs to the end of the context
		}
	}
	if prevEnd >= 0 && prevEnd < len(p.Msgs)-1 {
		eps.addGap(p, prevEnd+1, len(p.Msgs)-1, -1)
	}
	return eps
}

// addGap adds an unannotated unit over [from, to] if it holds anything
// evictable. closedAt is where the next episode starts (-1: trailing).
func (eps *Episodes) addGap(p *Plan, from, to, closedAt int) {
	for i := from; i <= to; i++ {
		if !p.protected(i) {
			eps.List = append(eps.List, Episode{ID: len(eps.List), Name: fmt.Sprintf("unannotated@%d", from), Kind: KindUnannotated,
				Start: from, End: to, ClosedAt: closedAt, TraceMsg: -1, TraceBlock: -1, TraceResult: -1})
			return
		}
	}
}

// callMessage finds the assistant message that issued the delimiter call
// whose result is message r, looking back a bounded distance.
func callMessage(p *Plan, r int) int {
	id := resultCallID(p.Msgs[r])
	for i := r - 1; i >= 0 && i >= r-64; i-- {
		if p.mKind[i] != msgAssistant {
			continue
		}
		for _, c := range p.Msgs[i].ToolCalls() {
			if c.ToolCallID == id {
				return i
			}
		}
		return r // the nearest assistant message did not make the call
	}
	return r
}

func resultCallID(m *session.Message) string {
	for k := range m.Blocks {
		if m.Blocks[k].Type == session.BlockToolResult && IsDelimiter(m.Blocks[k].ToolName) {
			return m.Blocks[k].ToolCallID
		}
	}
	return ""
}

// traceOf locates the end delimiter call answered by result message r.
func traceOf(p *Plan, r int) (msg, block, result int) {
	i := callMessage(p, r)
	if i == r {
		return -1, -1, r
	}
	id := resultCallID(p.Msgs[r])
	for k := range p.Msgs[i].Blocks {
		b := &p.Msgs[i].Blocks[k]
		if b.Type == session.BlockToolCall && b.ToolCallID == id {
			return i, k, r
		}
	}
	return -1, -1, r
}
