package cwl

import (
	"ctxscope/engine/pricing"
	"ctxscope/engine/tokens"
	"math"
)

// Scale is how one request's counted input becomes the provider's:
// Overhead + Ratio × counted, where the overhead is what the provider
// counts that the log does not hold (see tokens.Calibrate).
type Scale struct {
	Overhead float64 `json:"overhead"`
	Ratio    float64 `json:"ratio"`
	// Basis is how many earlier reported requests the scale rests on; 0
	// means none, and the scale is the identity.
	Basis int `json:"basis"`
}

// Tokens returns the provider's size of a counted input.
func (s Scale) Tokens(counted int) int {
	return max(0, int(math.Round(s.Overhead+s.Ratio*float64(counted))))
}

// counted returns the counted size whose provider's size is tokens: the
// budget a policy works to when the budget is in provider tokens.
func (s Scale) counted(tokens int) int {
	if s.Ratio <= 0 {
		return tokens
	}
	return max(0, int(math.Floor((float64(tokens)-s.Overhead)/s.Ratio)))
}

// budgetAt returns the budget request k is replayed to, in the counter's
// units.
func (o RunOptions) budgetAt(k int) int {
	if o.Calibration == nil {
		return o.Budget
	}
	return o.Calibration[k].counted(o.Budget)
}

// scale turns a replayed point's figures into the provider's tokens: the
// inputs gain the overhead (held by the unlogged category), and what the
// log holds is multiplied by the ratio. A negative overhead (the counter
// counts a constant more than the provider) comes off each category in
// proportion, so that the split still sums to the input it splits: taken
// off none of them, the categories of a real calibrated pi session summed
// to up to 1,799 tokens (1.3%) more than the input. Unsplit (split
// false), the categories are left as they are.
func (pt *Point) scale(s Scale, split bool) {
	ratio := func(v int) int { return int(math.Round(s.Ratio * float64(v))) }
	counted := pt.After
	pt.Before = s.Tokens(pt.Before)
	pt.After = s.Tokens(pt.After)
	if pt.Cached > 0 {
		pt.Cached = min(s.Tokens(pt.Cached), pt.After)
	}
	if split {
		share := s.Ratio
		if s.Overhead < 0 && counted > 0 {
			share = float64(pt.After) / float64(counted)
		}
		for i := range pt.Cats {
			pt.Cats[i] = int32(math.Round(share * float64(pt.Cats[i])))
		}
		pt.Cats[catUnlogged] = int32(math.Round(max(s.Overhead, 0)))
	}
	for i := range pt.Evictions {
		pt.Evictions[i].Freed = ratio(pt.Evictions[i].Freed)
	}
	if u := pt.Unreachable; u != nil {
		u.Over, u.Protected = ratio(u.Over), s.Tokens(u.Protected)
	}
	if c := pt.Summary; c != nil {
		c.Input = s.Tokens(c.Input)
		if c.Cached > 0 {
			c.Cached = min(s.Tokens(c.Cached), c.Input)
		}
	}
}

// Calibrate fits the provider's reported input on the replayer's counts,
// online (see tokens.Calibrate): each request's scale comes from the
// requests before it. The scales go in RunOptions.Calibration.
func (r *Replayer) Calibrate() ([]Scale, tokens.Calibration) {
	obs := make([]tokens.Observation, len(r.reqs))
	for k, q := range r.reqs {
		m := q.Entry.Message
		obs[k] = tokens.Observation{Group: m.Model, Counted: r.ctxs[r.reqCtx[k]].plan.Tokens(q.Len)}
		if m.Usage != nil {
			obs[k].Reported = m.Usage.Prompt()
		}
	}
	pred, cal := tokens.Calibrate(r.Counter, obs)
	scales := make([]Scale, len(pred))
	for k, p := range pred {
		scales[k] = Scale{Overhead: p.Overhead, Ratio: p.Ratio, Basis: p.Basis}
	}
	return scales, cal
}

// Reported returns the input each request's provider reported (0 when it
// did not) and its output.
func (r *Replayer) Reported() (input, output []int) {
	input, output = make([]int, len(r.reqs)), make([]int, len(r.reqs))
	for k, q := range r.reqs {
		if u := q.Entry.Message.Usage; u != nil {
			input[k], output[k] = u.Prompt(), u.Output
		}
	}
	return input, output
}

// PricesFromCatalog prices each request with its own model from catalog
// c (the rates at the request's time and for its reported input size),
// and gives its context window: the one the session recorded, else the
// catalog's.
func (r *Replayer) PricesFromCatalog(c *pricing.Catalog) []RequestPrice {
	out := make([]RequestPrice, len(r.reqs))
	models := map[[2]string]*pricing.Model{} // a session names few models
	for k, q := range r.reqs {
		m := q.Entry.Message
		out[k].Model = m.Model
		if m.Usage != nil {
			out[k].Window = m.Usage.ContextWindow
		}
		key := [2]string{m.Provider, m.Model}
		model, seen := models[key]
		if !seen {
			model, _ = c.Lookup(m.Provider, m.Model)
			models[key] = model
		}
		if model == nil {
			continue
		}
		window := out[k].Window
		if window == 0 {
			window = model.ContextWindow
		}
		prompt := 0
		if m.Usage != nil {
			prompt = m.Usage.Prompt()
		}
		rt := model.Rates(m.Time, prompt)
		out[k] = RequestPrice{Model: model.ID, OK: true, Window: window,
			Prices: Prices{Input: rt.Input, CacheRead: rt.CacheRead, CacheWrite: rt.CacheWrite, Output: rt.Output}}
	}
	return out
}
