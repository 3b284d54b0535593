package eval

import (
	"context"
	"encoding/json"
	"fmt"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/memory/retrieve"
)

// Axis is one knob and the values a tuning tries for it.
type Axis struct {
	Knob   string   `json:"knob"`
	Values []string `json:"values"`
}

// DefaultAxes are the knobs `memory tune` searches and the values it
// tries (docs/bench/memory.md records a run).
func DefaultAxes() []Axis {
	return []Axis{
		{"retrieval.layout", []string{retrieve.LayoutReference, retrieve.LayoutSessions}},
		{"retrieval.passageShare", []string{"0.7", "0.85", "1"}},
		{"retrieval.neighbours", []string{"false", "true"}},
		{"window", []string{"0", "1", "2"}},
		{"retrieval.lexicalWeight", []string{"0.3", "0.5", "0.7", "0.85"}},
		{"retrieval.speakerBoost", []string{"0", "0.05", "0.1", "0.2", "0.3"}},
		{"retrieval.speakerNamesOut", []string{"false", "true"}},
		{"retrieval.graphBoost", []string{"0", "0.05", "0.15", "0.3", "0.6"}},
		{"retrieval.experienceBoost", []string{"0", "0.15", "0.3"}},
		{"retrieval.feedback", []string{"0", "0.1", "0.2", "0.4"}},
		{"retrieval.feedbackDocs", []string{"3", "5"}},
		{"retrieval.sessionPenalty", []string{"0", "0.02", "0.05", "0.1"}},
		{"retrieval.hops", []string{"1", "2"}},
		{"retrieval.seedTriples", []string{"6", "12"}},
		{"retrieval.topTriples", []string{"36", "72"}},
		{"retrieval.timeHints", []string{"false", "true"}},
	}
}

// Objective is what a tuning maximises: the mean of the strict recall
// over categories 1–4 and of multi-hop's, at the tuning budget.
func Objective(s Summary) float64 {
	return (s.Overall.Strict + s.ByCategory[locomo.MultiHop].Strict) / 2
}

// Trial is one knob setting a tuning scored.
type Trial struct {
	Change   string  `json:"change"` // the knob changed from the best so far, "" for the start
	Score    float64 `json:"score"`
	Overall  float64 `json:"overall"`
	MultiHop float64 `json:"multiHop"`
	Kept     bool    `json:"kept"`
}

// Tuner chooses knobs by coordinate ascent: for each axis in turn, every
// value is tried with the other knobs at their best so far, and the best
// is kept; passes repeat until none improves, at most Passes times.
type Tuner struct {
	Suite  Suite // its Budgets' first entry is the tuning budget
	Axes   []Axis
	Passes int
}

// Run tunes from start on convs (whose memories are mems) and returns the
// best knobs and every trial.
func (t Tuner) Run(ctx context.Context, start retrieve.Knobs, convs []*locomo.Conversation, mems []*memory.Memory) (retrieve.Knobs, []Trial, error) {
	seen := map[string]float64{}
	score := func(k retrieve.Knobs, change string) (float64, Trial, error) {
		key, _ := json.Marshal(k)
		if s, ok := seen[string(key)]; ok {
			return s, Trial{}, nil
		}
		s := t.Suite
		s.Config, s.Window, s.Baseline, s.Budgets = k.Retrieval, k.Window, false, s.Budgets[:1]
		rows, err := s.Run(ctx, convs, mems)
		if err != nil {
			return 0, Trial{}, err
		}
		sum := Summarize(rows[0].Results)
		tr := Trial{Change: change, Score: Objective(sum), Overall: sum.Overall.Strict, MultiHop: sum.ByCategory[locomo.MultiHop].Strict}
		seen[string(key)] = tr.Score
		return tr.Score, tr, nil
	}
	best := start
	bestScore, first, err := score(best, "")
	if err != nil {
		return best, nil, err
	}
	first.Kept = true
	trials := []Trial{first}
	for pass := 0; pass < max(1, t.Passes); pass++ {
		improved := false
		for _, ax := range t.Axes {
			for _, v := range ax.Values {
				k := best
				if err := k.Set(ax.Knob + "=" + v); err != nil {
					return best, trials, fmt.Errorf("tune: %w", err)
				}
				s, tr, err := score(k, ax.Knob+"="+v)
				if err != nil {
					return best, trials, err
				}
				if tr.Change == "" { // scored before
					continue
				}
				if s > bestScore+1e-9 {
					best, bestScore, tr.Kept, improved = k, s, true, true
				}
				trials = append(trials, tr)
			}
		}
		if !improved {
			break
		}
	}
	return best, trials, nil
}
