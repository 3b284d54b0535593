package cwl

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Prices is a price table in US dollars per million tokens.
type Prices struct {
	Input      float64 `json:"input"`      // uncached input
	CacheWrite float64 `json:"cacheWrite"` // input written to the prompt cache
	CacheRead  float64 `json:"cacheRead"`  // input read from the prompt cache
	Output     float64 `json:"output"`
}

// ParsePrices reads a price table from JSON such as
// {"input":3,"cacheWrite":3.75,"cacheRead":0.3,"output":15}.
func ParsePrices(raw []byte) (Prices, error) {
	var p Prices
	if err := json.Unmarshal(raw, &p); err != nil {
		return Prices{}, fmt.Errorf("cwl: price table: %w", err)
	}
	return p, nil
}

// RequestPrice is the price table of one request's model, or why there is
// none.
type RequestPrice struct {
	Prices Prices `json:"prices"`
	Model  string `json:"model"`
	// OK is false when the model has no price ("no price for MODEL").
	OK bool `json:"ok"`
	// Window is the model's context window in tokens: as the session
	// recorded it, else as the catalog gives it; 0 when neither says.
	Window int `json:"window,omitempty"`
}

// CostSummary totals a replay under the cost and cache model.
type CostSummary struct {
	Requests     int     `json:"requests"`
	Input        int64   `json:"input"`      // Σ input tokens over requests (and summarization calls)
	CacheRead    int64   `json:"cacheRead"`  // Σ tokens shared with the previous request
	CacheWrite   int64   `json:"cacheWrite"` // Σ the rest
	Output       int64   `json:"output"`     // Σ provider-reported output tokens (and summaries)
	ExtraCalls   int     `json:"extraCalls"` // summarization calls (compact)
	Peak         int     `json:"peak"`       // the largest input
	Evictions    int     `json:"evictions"`
	Unreachable  int     `json:"unreachable"` // requests left over budget
	LookBack     int     `json:"lookBack"`
	CachedRatio  float64 `json:"cachedRatio"`  // CacheRead / Input
	Cost         float64 `json:"cost"`         // with prompt caching, in US dollars
	CostUncached float64 `json:"costUncached"` // the same tokens without caching
	// Priced is how many requests had a price; Cost covers those only.
	// NoPrice names the models without one; Models those priced.
	Priced  int      `json:"priced"`
	NoPrice []string `json:"noPrice,omitempty"`
	Models  []string `json:"models,omitempty"`
	// PriceSource says where the prices come from: a catalog and its
	// version, or a table the user gave.
	PriceSource string `json:"priceSource"`
}

func (r *Replayer) summarize(t *Timeline, o RunOptions) CostSummary {
	s := CostSummary{Requests: len(t.Requests), PriceSource: o.PriceSource}
	tally := newCostTally(&s, o)
	for k := range t.Requests {
		pt := &t.Requests[k]
		in, cr, out := int64(pt.After), int64(pt.Cached), int64(r.output[k])
		if c := pt.Summary; c != nil {
			s.ExtraCalls++
			in += int64(c.Input)
			cr += int64(c.Cached)
			out += int64(c.Output)
		}
		tally.add(k, in, cr, out)
		s.Peak = max(s.Peak, pt.After)
		s.Evictions += len(pt.Evictions)
		s.LookBack += pt.LookBack
		if pt.Unreachable != nil {
			s.Unreachable++
		}
	}
	tally.finish()
	return s
}

// costTally adds requests' tokens and prices into a summary: tokens read
// from the cache at the cache-read price, the rest of the input at the
// cache-write price, and the same tokens uncached beside them.
type costTally struct {
	s               *CostSummary
	o               RunOptions
	noPrice, priced map[string]bool
	// The model of the request before, already in noPrice or priced:
	// a session's requests come in long runs of one model, and a map
	// write per request was a sixth of this sum's time.
	lastNoPrice, lastPriced string
	cost, uncached          float64
}

func newCostTally(s *CostSummary, o RunOptions) *costTally {
	return &costTally{s: s, o: o, noPrice: map[string]bool{}, priced: map[string]bool{}}
}

// add counts request k: in input tokens, cr of them read from the cache,
// and out output tokens.
func (c *costTally) add(k int, in, cr, out int64) {
	s := c.s
	s.Input += in
	s.CacheRead += cr
	s.CacheWrite += in - cr
	s.Output += out
	p, ok := c.o.priceOf(k)
	if !ok {
		if m := c.o.modelOf(k); m != c.lastNoPrice || len(c.noPrice) == 0 {
			c.noPrice[m], c.lastNoPrice = true, m
		}
		return
	}
	if m := c.o.modelOf(k); m != c.lastPriced || len(c.priced) == 0 {
		c.priced[m], c.lastPriced = true, m
	}
	s.Priced++
	c.cost += float64(cr)*p.CacheRead + float64(in-cr)*p.CacheWrite + float64(out)*p.Output
	c.uncached += float64(in)*p.Input + float64(out)*p.Output
}

// finish writes the ratio, the costs and the models into the summary.
func (c *costTally) finish() {
	s := c.s
	if s.Input > 0 {
		s.CachedRatio = round6(float64(s.CacheRead) / float64(s.Input))
	}
	s.Cost, s.CostUncached = round6(c.cost/1e6), round6(c.uncached/1e6)
	s.NoPrice, s.Models = sortedKeys(c.noPrice), sortedKeys(c.priced)
}

// priceOf returns request k's prices: the table the user gave for every
// request, else the request's own model's.
func (o RunOptions) priceOf(k int) (Prices, bool) {
	if o.Prices != (Prices{}) {
		return o.Prices, true
	}
	if k < len(o.RequestPrices) && o.RequestPrices[k].OK {
		return o.RequestPrices[k].Prices, true
	}
	return Prices{}, false
}

// modelOf names request k's model for the cost summary.
func (o RunOptions) modelOf(k int) string {
	if o.Prices != (Prices{}) {
		return "(the given price table)"
	}
	if k < len(o.RequestPrices) && o.RequestPrices[k].Model != "" {
		return o.RequestPrices[k].Model
	}
	return "(no model recorded)"
}

func sortedKeys(m map[string]bool) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// assumptions states what a replay's numbers take for granted.
func assumptions(o RunOptions, mode EpisodeMode) []string {
	counts := "Token counts are the counter's over the messages only; system prompts and tool schemas that the source did not record are not counted."
	if o.Calibration != nil {
		counts = "Token counts are the provider's as calibrated online: for each request, overhead + ratio × the counter's count, fitted on the usage reported by the requests before it; the overhead stands for what the provider counted that the log does not hold (system prompt, tool schemas) and shows as the unlogged category; the budget is in these tokens."
	}
	a := []string{
		counts,
		"Each request's input is the policy's view of the messages before the request's response; the responses are the recorded ones, not re-generated under the policy.",
		"Prompt cache: the part of an input identical to the start of the previous input is read from cache; everything after it is written to cache; entries never expire.",
		"Cost prices each request with its own model's rates (cache reads, cache writes, output) from the price catalog, or with the table given; a model without a price is left out and named; output tokens are the provider-reported ones (0 where the source has no usage).",
		"Look-back proxy: a response's read of a path counts when an earlier read of the same path is evicted from that request's input.",
	}
	switch o.Policy {
	case PolicyPaper:
		a = append(a, "paper: Algorithm 1; eviction state is monotone across the requests of a context; unannotated content waits until every act episode after it is fully evicted.")
	case PolicyPiCWL:
		a = append(a, "pi-cwl: the reference pass recomputed before every request from the full history (evicted episodes can come back).")
	case PolicyTruncate:
		a = append(a, "truncate: drops the oldest messages other than user turns and system prompts until the input fits; tool results go with their calls.")
	case PolicyCompact:
		a = append(a, fmt.Sprintf("compact: when the input passes %s, a summarization call reads the whole input and writes a %d-token summary that replaces all but the most recent %d tokens; system prompts are kept.",
			triggerText(o), o.Compact.SummaryTokens, o.Compact.KeepRecent))
	case PolicyNone:
		a = append(a, "none: the uncapped input, as recorded.")
	}
	if mode == Inferred {
		a = append(a, "Episodes are inferred from tool use (edits make act episodes, reads and searches expl episodes); the session declared none.")
	}
	return a
}

func triggerText(o RunOptions) string {
	if o.Compact.Fraction > 0 {
		return fmt.Sprintf("%.0f%% of a %d-token window", o.Compact.Fraction*100, o.Compact.Window)
	}
	return fmt.Sprintf("the budget (%d tokens)", o.Budget)
}

// lookBacks finds, for each request, the earlier calls that its response
// makes again: a read of the same path, a search for the same pattern in
// the same place, or the same inspecting command (see lookKey).
func lookBacks(r *Replayer) [][]int32 {
	out := make([][]int32, len(r.reqs))
	for k, q := range r.reqs {
		c := r.ctxs[r.reqCtx[k]]
		p := c.plan
		if q.Len >= len(p.Msgs) || p.Msgs[q.Len] != q.Entry.Message {
			continue
		}
		for b := p.mFirst[q.Len]; b < p.mFirst[q.Len+1]; b++ {
			if _, key := lookKey(p, int(b)); key != "" {
				if e := c.lastCall(key, int(p.mFirst[q.Len])); e >= 0 {
					out[k] = append(out[k], int32(e))
				}
			}
		}
	}
	return out
}

// lastCall returns the latest call of key (see lookKey) before block
// limit, or -1.
func (c *replayCtx) lastCall(key string, limit int) int {
	if c.calls == nil {
		c.calls = map[string][]int32{}
		p := c.plan
		for b := range p.bMsg {
			if _, k := lookKey(p, b); k != "" {
				c.calls[k] = append(c.calls[k], int32(b))
			}
		}
	}
	last := -1
	for _, b := range c.calls[key] {
		if int(b) >= limit {
			break
		}
		last = int(b)
	}
	return last
}

// ReRead is an earlier call that a request's response makes again: its
// message and block indices in the request's context, its kind (read,
// search or run) and what it reads, searches or runs.
type ReRead struct {
	Message int
	Block   int
	Kind    string
	Path    string
}

// ReReads returns the earlier calls that the response of request k makes
// again, evicted or not; Point.LookBack counts those evicted.
func (r *Replayer) ReReads(k int) []ReRead {
	p := r.ctxs[r.reqCtx[k]].plan
	var out []ReRead
	for _, b := range r.looks[k] {
		i := p.bMsg[b]
		kind, key := lookKey(p, int(b))
		out = append(out, ReRead{Message: int(i), Block: int(b - p.mFirst[i]), Kind: kind, Path: strings.TrimPrefix(key, kind+" ")})
	}
	return out
}
