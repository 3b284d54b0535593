package cwl

import (
	"encoding/json"
	"fmt"
	"math"

	"ctxscope/engine/session"
)

// Prices is a price table in US dollars per million tokens.
type Prices struct {
	Input      float64 `json:"input"`      // uncached input
	CacheWrite float64 `json:"cacheWrite"` // input written to the prompt cache
	CacheRead  float64 `json:"cacheRead"`  // input read from the prompt cache
	Output     float64 `json:"output"`
}

// DefaultPrices are Anthropic's list prices for Claude Sonnet 4 (5-minute
// cache writes).
var DefaultPrices = Prices{Input: 3, CacheWrite: 3.75, CacheRead: 0.30, Output: 15}

// ParsePrices reads a price table from JSON such as
// {"input":3,"cacheWrite":3.75,"cacheRead":0.3,"output":15}.
func ParsePrices(raw []byte) (Prices, error) {
	p := DefaultPrices
	if err := json.Unmarshal(raw, &p); err != nil {
		return Prices{}, fmt.Errorf("cwl: price table: %w", err)
	}
	return p, nil
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
	Prices       Prices  `json:"prices"`
}

func (r *Replayer) summarize(t *Timeline, o RunOptions) CostSummary {
	s := CostSummary{Requests: len(t.Requests), Prices: o.Prices}
	for k := range t.Requests {
		pt := &t.Requests[k]
		s.Input += int64(pt.After)
		s.CacheRead += int64(pt.Cached)
		s.CacheWrite += int64(pt.After - pt.Cached)
		s.Output += int64(r.output[k])
		s.Peak = max(s.Peak, pt.After)
		s.Evictions += len(pt.Evictions)
		s.LookBack += pt.LookBack
		if pt.Unreachable != nil {
			s.Unreachable++
		}
		if c := pt.Summary; c != nil {
			s.ExtraCalls++
			s.Input += int64(c.Input)
			s.CacheRead += int64(c.Cached)
			s.CacheWrite += int64(c.Input - c.Cached)
			s.Output += int64(c.Output)
		}
	}
	if s.Input > 0 {
		s.CachedRatio = float64(s.CacheRead) / float64(s.Input)
	}
	p := o.Prices
	s.Cost = round6((float64(s.CacheRead)*p.CacheRead + float64(s.CacheWrite)*p.CacheWrite + float64(s.Output)*p.Output) / 1e6)
	s.CostUncached = round6((float64(s.Input)*p.Input + float64(s.Output)*p.Output) / 1e6)
	s.CachedRatio = round6(s.CachedRatio)
	return s
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// assumptions states what a replay's numbers take for granted.
func assumptions(o RunOptions, mode EpisodeMode) []string {
	a := []string{
		"Token counts are the counter's over the messages only; system prompts and tool schemas that the source did not record are not counted.",
		"Each request's input is the policy's view of the messages before the request's response; the responses are the recorded ones, not re-generated under the policy.",
		"Prompt cache: the part of an input identical to the start of the previous input is read from cache; everything after it is written to cache; entries never expire.",
		"Cost uses the price table per million tokens: cache reads, cache writes and output; output tokens are the provider-reported ones (0 where the source has no usage).",
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

// lookBacks finds, for each request, the earlier read calls that its
// response reads again (same path, read-class tool).
func lookBacks(r *Replayer) [][]int32 {
	out := make([][]int32, len(r.reqs))
	for k, q := range r.reqs {
		c := r.ctxs[r.reqCtx[k]]
		p := c.plan
		if q.Len >= len(p.Msgs) || p.Msgs[q.Len] != q.Entry.Message {
			continue
		}
		for b := p.mFirst[q.Len]; b < p.mFirst[q.Len+1]; b++ {
			if p.bType[b] != session.BlockToolCall || p.bClass[b] != ClassRead {
				continue
			}
			if e := c.lastRead(p.bPath[b], int(p.mFirst[q.Len])); e >= 0 {
				out[k] = append(out[k], int32(e))
			}
		}
	}
	return out
}

// lastRead returns the latest read call of path before block limit, or -1.
func (c *replayCtx) lastRead(path string, limit int) int {
	path = cleanPath(path)
	if path == "" {
		return -1
	}
	if c.reads == nil {
		c.reads = map[string][]int32{}
		p := c.plan
		for b := range p.bMsg {
			if p.bType[b] == session.BlockToolCall && p.bClass[b] == ClassRead && p.bPath[b] != "" {
				k := cleanPath(p.bPath[b])
				c.reads[k] = append(c.reads[k], int32(b))
			}
		}
	}
	last := -1
	for _, b := range c.reads[path] {
		if int(b) >= limit {
			break
		}
		last = int(b)
	}
	return last
}
