package cwl

import (
	"fmt"
	"strings"
)

// Timeline is what a replay records: one point per LLM request, in the
// shape the debugger draws (input tokens stacked by category, the budget
// line, eviction markers by level, unreachable-budget markers), plus the
// cost and cache summary and every assumption behind it.
type Timeline struct {
	Policy     string      `json:"policy"`
	Episodes   EpisodeMode `json:"episodes"`
	Budget     int         `json:"budget"`
	Counter    string      `json:"counter"`
	Categories []string    `json:"categories"` // names of Point.Cats, in order
	Requests   []Point     `json:"requests"`
	Cost       CostSummary `json:"cost"`
	// Assumptions states what the numbers take for granted.
	Assumptions []string `json:"assumptions"`
}

// Point is one request of a replay.
type Point struct {
	Request  int `json:"k"`
	Context  int `json:"ctx"` // which shared context the input is a prefix of
	Messages int `json:"n"`   // messages in the input
	Before   int `json:"before"`
	After    int `json:"after"`
	// Cached is the part of the input shared with the previous request's
	// input (a cache read under the cost model).
	Cached int `json:"cached"`
	// Cats splits After by category ([CategoryNames] order), rounded.
	Cats      [numCats]int32 `json:"cats"`
	Evictions []Eviction     `json:"evictions,omitempty"`
	// Restored lists episodes that came (partly) back into context, with
	// the level they are at now: pi-cwl's stateless recomputation can undo
	// an eviction. With Evictions, these are every level change, so the
	// levels in context at request k are the fold of both over the
	// requests of its context up to k.
	Restored []LevelChange `json:"restored,omitempty"`
	// LateDependencies are act episodes that entered the input at this
	// request depending on an episode the paper policy had already
	// evicted. The protocol allows it, and monotone eviction keeps that
	// content out; pi-cwl would bring it back (see [Point.Restored]).
	LateDependencies []LateDependency `json:"lateDependencies,omitempty"`
	Unreachable      *Unreachable     `json:"unreachable,omitempty"`
	// LookBack counts tool calls of the response that make an earlier call
	// again (a read of the same path, the same search, the same
	// inspecting command; see lookKey) whose earlier call is evicted from
	// this input.
	LookBack int `json:"lookBack,omitempty"`
	// Summary is the summarization call the compact policy made before
	// this request, if any.
	Summary *SummaryCall `json:"summary,omitempty"`
}

// LateDependency is an act episode that declared a dependency on an
// episode evicted before it started. Episodes are indexes in the context's
// episode list.
type LateDependency struct {
	Act        int `json:"act"`
	Dependency int `json:"dependency"`
	Level      int `json:"level"` // the dependency's level when the act started
}

// Describe says what d means in words, with the episodes' names from eps.
func (d LateDependency) Describe(eps []Episode) string {
	return fmt.Sprintf("%s depends on %s, already evicted to level %d (%s); eviction is monotone, so it stays out",
		eps[d.Act].Name, eps[d.Dependency].Name, d.Level, LevelNames[d.Level])
}

// Eviction is one level applied to one episode while preparing a request.
type Eviction struct {
	Episode int    `json:"episode"` // index in the context's episode list
	Level   int    `json:"level"`   // paper level 1-4
	Step    string `json:"step,omitempty"`
	Freed   int    `json:"freed"` // tokens the step freed
	// Messages removed whole, and blocks removed from messages that stay,
	// as (message, block) indices into the context; only with detail.
	Messages []int    `json:"messages,omitempty"`
	Blocks   [][2]int `json:"blocks,omitempty"`
}

// LevelChange is an episode's new eviction level (0: whole again).
type LevelChange struct {
	Episode int `json:"episode"`
	Level   int `json:"level"`
}

// Unreachable explains a request that stays over budget: nothing eligible
// is left to evict.
type Unreachable struct {
	Over int `json:"over"` // tokens above the budget
	// Protected is what the policy never evicts: user turns and system
	// prompts, and the prologue (paper) or the prologue and every gap
	// between episodes (pi-cwl).
	Protected int `json:"protected"`
	// Blockers names what keeps content in. Requests of one input
	// structure share the slice: treat it as read-only.
	Blockers []Blocker `json:"blockers"`
}

// Blocker kinds.
const (
	BlockActive      = "active"      // the episode is still open
	BlockDependency  = "dependency"  // an expl episode held by dependent acts still in context
	BlockUnannotated = "unannotated" // unannotated content held by act episodes after it
	BlockProtected   = "protected"   // user turns, system prompts, prologue
	BlockNoEpisodes  = "no-episodes" // the session declares no episodes
)

// Blocker names one reason the budget cannot be met.
type Blocker struct {
	Kind    string `json:"kind"`
	Episode int    `json:"episode"` // -1 when the blocker is not an episode
	By      []int  `json:"by,omitempty"`
}

// SummaryCall is a summarization request of the compact policy.
type SummaryCall struct {
	Input  int `json:"input"`
	Cached int `json:"cached"`
	Output int `json:"output"`
}

func roundCats(c [numCats]float64) [numCats]int32 {
	var out [numCats]int32
	for i, v := range c {
		if v < 0 {
			v = 0
		}
		out[i] = int32(v + 0.5)
	}
	return out
}

func newTimeline(r *Replayer, o RunOptions) *Timeline {
	t := &Timeline{Categories: CategoryNames(), Requests: make([]Point, len(r.reqs))}
	r.heading(t, o)
	return t
}

// heading makes t the timeline of a run under o that has not run yet: its
// policy, budget and counter set, its summary cleared, its categories
// and points kept (the run writes over the points).
func (r *Replayer) heading(t *Timeline, o RunOptions) {
	*t = Timeline{Policy: o.Policy, Episodes: r.Mode, Budget: o.Budget, Counter: r.counterName(o),
		Categories: t.Categories, Requests: t.Requests}
}

// counterName names the counter of a run under o.
func (r *Replayer) counterName(o RunOptions) string {
	if o.Calibration != nil {
		return "calibrated " + r.Counter
	}
	return r.Counter
}

// Describe says in words why a request stays over budget, naming episodes
// from eps (the episodes of the request's context).
func (u *Unreachable) Describe(eps []Episode) string {
	name := func(i int) string {
		if i >= 0 && i < len(eps) {
			return eps[i].Name
		}
		return fmt.Sprint(i)
	}
	parts := []string{fmt.Sprintf("%d tokens over budget", u.Over)}
	for _, b := range u.Blockers {
		switch b.Kind {
		case BlockProtected:
			parts = append(parts, fmt.Sprintf("%d tokens the policy never evicts (user turns, system prompts, prologue)", u.Protected))
		case BlockNoEpisodes:
			parts = append(parts, "the session declares no episodes (try inferred episodes)")
		case BlockActive:
			parts = append(parts, name(b.Episode)+" is still open")
		default:
			var by []string
			for _, d := range b.By {
				by = append(by, name(d))
			}
			parts = append(parts, fmt.Sprintf("%s is held by %s", name(b.Episode), strings.Join(by, ", ")))
		}
	}
	return strings.Join(parts, "; ")
}
