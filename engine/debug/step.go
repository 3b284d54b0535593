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
// are 13 of a step's 14 numbers per request.
//
// A step's marks and requests over budget come in columns ([Marks],
// [Overs]), not as a timeline's objects: at τ = 40,000 a paper-scale step
// holds 6,473 marks and 7,043 requests over budget, which as objects
// were 84% of its JSON (384 of 459 KB) and most of what building it
// allocated.
type Step struct {
	Policy      string          `json:"policy"`
	Budget      int             `json:"budget"`
	Requests    int             `json:"requests"`
	Split       bool            `json:"split"`
	After       []int           `json:"after"`
	Cached      []int           `json:"cached"`
	Cats        [][]int32       `json:"cats"`
	Evictions   Marks           `json:"evictions"`
	Restored    Marks           `json:"restored"`
	Unreachable Overs           `json:"unreachable"`
	Cost        cwl.CostSummary `json:"cost"`
	Assumptions []string        `json:"assumptions"`
}

// Marks are evictions or restorations in columns: mark i is request
// K[i]'s, of episode Episode[i], at level Level[i] (a [Mark] without its
// detail).
type Marks struct {
	K       []int32 `json:"k"`
	Episode []int32 `json:"episode"`
	Level   []int32 `json:"level"`
}

// Overs are requests left over budget in columns: request K[i] is
// Over[i] tokens over (an [Over] without its reason).
type Overs struct {
	K    []int32 `json:"k"`
	Over []int32 `json:"over"`
}

// Step replays the thread under p's policy and budget and returns what
// that changes in the view's timeline ([Replay.TimelineForView]); with
// split false, without Cached and Cats (empty).
func (r *Replay) Step(p Params, split bool) (*Step, error) {
	var out *Step
	err := r.run(p, timelineParts{split: split}, func(t *cwl.Timeline) { out = stepOf(t, split) })
	return out, err
}

// stepOf copies what a step holds of run t, which it keeps nothing of.
func stepOf(t *cwl.Timeline, split bool) *Step {
	n := len(t.Requests)
	evicted, restored, over := markCounts(t)
	s := &Step{Policy: t.Policy, Budget: t.Budget, Requests: n, Split: split, After: make([]int, n), Cached: []int{}, Cats: [][]int32{},
		Evictions: newMarks(evicted), Restored: newMarks(restored), Unreachable: Overs{K: make([]int32, 0, over), Over: make([]int32, 0, over)},
		Cost: t.Cost, Assumptions: t.Assumptions}
	if split {
		s.Cached, s.Cats = splitColumns(t)
	}
	for k := range t.Requests {
		pt := &t.Requests[k]
		s.After[k] = pt.After
		for _, ev := range pt.Evictions {
			s.Evictions.add(k, ev.Episode, ev.Level)
		}
		for _, rs := range pt.Restored {
			s.Restored.add(k, rs.Episode, rs.Level)
		}
		if u := pt.Unreachable; u != nil {
			s.Unreachable.K = append(s.Unreachable.K, int32(k))
			s.Unreachable.Over = append(s.Unreachable.Over, int32(u.Over))
		}
	}
	return s
}

func newMarks(n int) Marks {
	return Marks{K: make([]int32, 0, n), Episode: make([]int32, 0, n), Level: make([]int32, 0, n)}
}

func (m *Marks) add(k, episode, level int) {
	m.K = append(m.K, int32(k))
	m.Episode = append(m.Episode, int32(episode))
	m.Level = append(m.Level, int32(level))
}
