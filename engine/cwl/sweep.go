package cwl

import (
	"context"
	"fmt"
)

// SweepPoint is one budget of a τ sweep.
type SweepPoint struct {
	Budget      int     `json:"budget"`
	Input       int64   `json:"input"`
	Peak        int     `json:"peak"`
	CachedRatio float64 `json:"cachedRatio"`
	Cost        float64 `json:"cost"`
	Evictions   int     `json:"evictions"`
	Unreachable int     `json:"unreachable"`
	LookBack    int     `json:"lookBack"`
}

// Curve is one policy's sweep.
type Curve struct {
	Policy string       `json:"policy"`
	Points []SweepPoint `json:"points"`
}

// Sweep replays every policy at every budget from `from` to `to`
// (inclusive) in steps of step, returning one curve per policy. base
// supplies everything but the policy and budget. It stops with ctx's
// cause when ctx ends.
func (r *Replayer) Sweep(ctx context.Context, policies []string, from, to, step int, base RunOptions) ([]Curve, error) {
	if step <= 0 || from < 0 || to < from {
		return nil, fmt.Errorf("cwl: invalid sweep %d..%d step %d", from, to, step)
	}
	if (to-from)/step > 10_000 {
		return nil, fmt.Errorf("cwl: sweep of %d budgets is too long (at most 10,000)", (to-from)/step+1)
	}
	var curves []Curve
	for _, pol := range policies {
		c := Curve{Policy: pol}
		for b := from; b <= to; b += step {
			if err := ctx.Err(); err != nil {
				return nil, context.Cause(ctx)
			}
			o := base
			o.Policy, o.Budget, o.Detail = pol, b, false
			t, err := r.Run(o)
			if err != nil {
				return nil, err
			}
			s := t.Cost
			c.Points = append(c.Points, SweepPoint{Budget: b, Input: s.Input, Peak: s.Peak, CachedRatio: s.CachedRatio, Cost: s.Cost,
				Evictions: s.Evictions, Unreachable: s.Unreachable, LookBack: s.LookBack})
		}
		curves = append(curves, c)
	}
	return curves, nil
}
