package app

import (
	"context"
	"fmt"
	"time"

	"ctxscope/search"
)

// MemorySearch is a search over one memory's passages, triples and
// experience items.
type MemorySearch struct {
	Set   string `json:"set"`
	Query string `json:"query"`
	// Syntax reads the query with Bleve's query syntax; otherwise every
	// word is required and nothing is syntax.
	Syntax  bool   `json:"syntax"`
	Kind    string `json:"kind"`    // passage, triple or experience; "" for all
	Speaker string `json:"speaker"` // "" for anyone
	Session string `json:"session"` // the conversation session, "" for all
	// After and Before bound the time (when it was said), Unix
	// milliseconds; 0 is open.
	After  int64 `json:"after"`
	Before int64 `json:"before"`
	From   int   `json:"from"`
	Size   int   `json:"size"`
}

// MemoryHits is a page of memory search hits with their facets: by kind,
// speaker, session and month.
type MemoryHits struct {
	Total  uint64                         `json:"total"`
	Hits   []search.Hit                   `json:"hits"`
	Facets map[string][]search.FacetCount `json:"facets"`
	// Months are the time facet's ranges, in order, for the month facet.
	Months []search.TimeRange `json:"months"`
	Millis float64            `json:"millis"`
}

// Search searches one memory in the workspace index.
func (s *Memory) Search(ctx context.Context, r MemorySearch) (*MemoryHits, error) {
	s.app.called("Memory.Search", r)
	lm, err := s.get(ctx, r.Set)
	if err != nil {
		return nil, err
	}
	if r.Kind != "" && r.Kind != search.KindPassage && r.Kind != search.KindTriple && r.Kind != search.KindExperience {
		return nil, fmt.Errorf("unknown kind %q", r.Kind)
	}
	req := search.Request{Query: r.Query, Mode: search.ModePlain, Set: r.Set, Kind: r.Kind, Speaker: r.Speaker, DialogSession: r.Session,
		From: r.From, Size: r.Size, Facets: true, TimeRanges: months(lm)}
	if r.Syntax {
		req.Mode = search.ModeQuery
	}
	if r.After > 0 {
		req.After = time.UnixMilli(r.After).UTC()
	}
	if r.Before > 0 {
		req.Before = time.UnixMilli(r.Before).UTC()
	}
	start := time.Now()
	res, err := s.app.ws.Search(ctx, req)
	if err != nil {
		return nil, err
	}
	return &MemoryHits{Total: res.Total, Hits: res.Hits, Facets: res.Facets, Months: req.TimeRanges,
		Millis: float64(time.Since(start).Microseconds()) / 1000}, nil
}

// months returns one range per calendar month the memory's passages span.
func months(lm *loadedMemory) []search.TimeRange {
	var first, last time.Time
	for _, p := range lm.m.Passages {
		if p.Time.IsZero() {
			continue
		}
		if first.IsZero() || p.Time.Before(first) {
			first = p.Time
		}
		if p.Time.After(last) {
			last = p.Time
		}
	}
	if first.IsZero() {
		return nil
	}
	var out []search.TimeRange
	m := time.Date(first.Year(), first.Month(), 1, 0, 0, 0, 0, time.UTC)
	for !m.After(last) && len(out) < 240 {
		next := m.AddDate(0, 1, 0)
		out = append(out, search.TimeRange{Name: m.Format("2006-01"), Start: m, End: next})
		m = next
	}
	return out
}
