package evict

import (
	"ctxscope/engine/ingest/proxyrec"
	"ctxscope/engine/proxy"
)

// CacheReport is what eviction cost in the provider's prompt cache over
// one conversation, read from the usage the provider reported for each
// request. Eviction changes the prompt's prefix, and the provider then
// reads less of it from its cache: the tokens of the previous prompt that
// a request did not read from the cache are the break.
type CacheReport struct {
	Requests int `json:"requests"`
	// Rewritten counts the requests forwarded rewritten.
	Rewritten int `json:"rewritten"`
	// Prompt is the input tokens of all requests; Cached those read from
	// the cache (the rest were written to it or read uncached).
	Prompt int `json:"prompt"`
	Cached int `json:"cached"`
	// Broken is the sum, over requests, of the tokens of the previous
	// prompt that the request did not read from the cache. Breaks counts
	// the requests that lost more than a tenth of the previous prompt
	// that way: an agent that sends its tools after its messages loses
	// their few hundred tokens at every request, which is no break.
	Broken int `json:"broken"`
	Breaks int `json:"breaks"`
}

// CacheReadPrice is the price of a token read from the cache against an
// uncached one: Anthropic's and OpenAI's current prompt caches charge a
// tenth.
const CacheReadPrice = 0.1

// Cost is the input's cost in uncached tokens: the tokens not read from
// the cache at full price, those read at CacheReadPrice.
func (r CacheReport) Cost() float64 {
	return float64(r.Prompt-r.Cached) + CacheReadPrice*float64(r.Cached)
}

// Cache reports the cache cost of a conversation's records, in order.
// Requests whose response reported no usage count in Requests only.
func Cache(recs []*proxy.Record) CacheReport {
	var r CacheReport
	prev := -1
	for _, rec := range recs {
		r.Requests++
		if rec.Forwarded != nil {
			r.Rewritten++
		}
		u := proxyrec.Usage(rec)
		if u == nil {
			continue
		}
		prompt := u.Prompt()
		r.Prompt += prompt
		r.Cached += u.CacheRead
		if prev >= 0 && u.CacheRead < prev {
			r.Broken += prev - u.CacheRead
			if 10*(prev-u.CacheRead) > prev {
				r.Breaks++
			}
		}
		prev = prompt
	}
	return r
}
