package debug

import "ctxscope/engine/cwl"

// Step is what a replay at another policy or budget changes in a
// timeline of the same prepared replay: the kept input and its split,
// the evictions, the requests left over budget, the cost. A view that
// holds a [Timeline] of the replay takes the rest from it ([Uncapped]
// and what the provider reported), so that a step of a τ drag sends a
// quarter less; Requests tells it the step is about as many requests as
// the timeline it holds.
//
// A step without its split (Split false) leaves Cached and Cats out: the
// kept input alone, which is all a chart draws while τ is dragged. Those
// are 13 of a step's 14 numbers per request, three quarters of a
// paper-scale step's JSON (909 KB against 203 KB); the step at the τ the
// drag ends on carries them.
type Step struct {
	Policy      string          `json:"policy"`
	Budget      int             `json:"budget"`
	Requests    int             `json:"requests"`
	Split       bool            `json:"split"`
	After       []int           `json:"after"`
	Cached      []int           `json:"cached"`
	Cats        [][]int32       `json:"cats"`
	Evictions   []Mark          `json:"evictions"`
	Restored    []Mark          `json:"restored"`
	Unreachable []Over          `json:"unreachable"`
	Cost        cwl.CostSummary `json:"cost"`
	Assumptions []string        `json:"assumptions"`
}

// Step replays the thread under p's policy and budget and returns what
// that changes in the view's timeline ([Replay.TimelineForView]); with
// split false, without Cached and Cats (empty).
func (r *Replay) Step(p Params, split bool) (*Step, error) {
	t, err := r.timeline(p, timelineParts{split: split})
	if err != nil {
		return nil, err
	}
	return &Step{Policy: t.Policy, Budget: t.Budget, Requests: len(t.After), Split: split, After: t.After, Cached: t.Cached, Cats: t.Cats,
		Evictions: t.Evictions, Restored: t.Restored, Unreachable: t.Unreachable, Cost: t.Cost, Assumptions: t.Assumptions}, nil
}
