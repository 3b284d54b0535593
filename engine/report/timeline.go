package report

import (
	"time"

	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// Point is one request on a token timeline.
type Point struct {
	Request int       `json:"request"` // index among the thread's requests
	Line    int       `json:"line"`    // source line of the assistant message
	EntryID string    `json:"entryId"`
	Time    time.Time `json:"time"`
	// Tokens is the request's input as the counter measures it.
	Tokens int `json:"tokens"`
	// Breakdown splits Tokens by category, in [tokens.CategoryNames] order.
	Breakdown []float64 `json:"breakdown"`
	// Messages is the number of messages in the input.
	Messages int `json:"messages"`
	// Reported is the input size the provider reported (uncached, cache
	// read and cache write together), 0 when the source has no usage.
	Reported int `json:"reported"`
	// AfterCompaction marks the first request after a compaction by the
	// source agent.
	AfterCompaction bool `json:"afterCompaction,omitempty"`
}

// Timeline measures the input of every request with l. Requests that share
// a context share its prefix sums, so the cost is linear in the number of
// messages, not in the sum of the inputs.
func Timeline(reqs []*session.Request, l *tokens.Ledger) []Point {
	type prefix struct {
		tok []int
		cat []tokens.Breakdown
	}
	sums := map[*session.Context]*prefix{}
	pts := make([]Point, len(reqs))
	for i, r := range reqs {
		p := sums[r.Context]
		if p == nil {
			p = &prefix{tok: []int{0}, cat: []tokens.Breakdown{{}}}
			sums[r.Context] = p
		}
		for k := len(p.tok) - 1; k < r.Len; k++ {
			m := r.Context.Messages[k]
			p.tok = append(p.tok, p.tok[k]+l.Message(m))
			b := p.cat[k]
			b.Add(l.Breakdown(m))
			p.cat = append(p.cat, b)
		}
		m := r.Entry.Message
		pt := Point{
			Request:         r.Index,
			Line:            r.Entry.Line,
			EntryID:         r.Entry.ID,
			Time:            m.Time,
			Tokens:          p.tok[r.Len],
			Breakdown:       p.cat[r.Len][:],
			Messages:        r.Len,
			AfterCompaction: r.AfterCompaction,
		}
		if m.Usage != nil {
			pt.Reported = m.Usage.Prompt()
		}
		pts[i] = pt
	}
	return pts
}
