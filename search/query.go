package search

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Mode is how a query string is read.
type Mode string

// Query modes.
const (
	// ModeQuery reads Bleve's query-string syntax: +must -mustnot,
	// "phrases", field:value, prefix*, /regexp/, ranges.
	ModeQuery Mode = "query"
	// ModePlain matches the words as written, every one required, with no
	// syntax at all: what a search box in a UI wants.
	ModePlain Mode = "plain"
)

// ErrBadQuery is returned for a query string that does not parse.
var ErrBadQuery = errors.New("search: bad query")

// DefaultSize is the page size when a request gives none.
const DefaultSize = 20

// MaxSize caps a page, so that a request cannot ask for the whole index.
const MaxSize = 1000

// Request is a search.
type Request struct {
	Query string `json:"query"`
	Mode  Mode   `json:"mode,omitempty"` // ModeQuery when empty
	// Filters: exact values a hit must have; empty means any.
	Kind    string `json:"kind,omitempty"`
	Session string `json:"session,omitempty"`
	Role    string `json:"role,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Set     string `json:"set,omitempty"`
	Speaker string `json:"speaker,omitempty"`
	// DialogSession keeps memory documents of one conversation session.
	DialogSession string `json:"dialogSession,omitempty"`
	// After and Before keep documents whose time is in [After, Before);
	// a zero bound is open.
	After  time.Time `json:"after,omitzero"`
	Before time.Time `json:"before,omitzero"`
	// From and Size page through the hits.
	From int `json:"from,omitempty"`
	Size int `json:"size,omitempty"`
	// Facets asks for the counts of hits by kind, tool, session, role,
	// speaker and conversation session.
	Facets bool `json:"facets,omitempty"`
	// TimeRanges, with Facets, also counts the hits whose time falls in
	// each range, under the facet "time".
	TimeRanges []TimeRange `json:"timeRanges,omitempty"`
}

// TimeRange is a named half-open range of time [Start, End), for facets.
type TimeRange struct {
	Name  string    `json:"name"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// Hit is one matching document and where it points.
type Hit struct {
	ID      string  `json:"id"`
	Score   float64 `json:"score"`
	Kind    string  `json:"kind"`
	Session string  `json:"session,omitempty"`
	Thread  string  `json:"thread,omitempty"`
	Entry   string  `json:"entry,omitempty"`
	Line    int     `json:"line,omitempty"`
	Role    string  `json:"role,omitempty"`
	Tool    string  `json:"tool,omitempty"`
	Episode string  `json:"episode,omitempty"`
	Speaker string  `json:"speaker,omitempty"`
	Set     string  `json:"set,omitempty"`
	// DialogSession is a memory hit's conversation session.
	DialogSession string     `json:"dialogSession,omitempty"`
	Time          time.Time  `json:"time,omitzero"`
	Fragments     []Fragment `json:"fragments"`
}

// FacetCount is the number of hits with one value of a field.
type FacetCount struct {
	Term  string `json:"term"`
	Count int    `json:"count"`
}

// Result is a page of hits.
type Result struct {
	Total  uint64                  `json:"total"`
	Hits   []Hit                   `json:"hits"`
	Facets map[string][]FacetCount `json:"facets,omitempty"`
	Took   time.Duration           `json:"took"`
}

// facetFields are the fields counted when a request asks for facets.
var facetFields = []string{FieldKind, FieldTool, FieldSession, FieldRole, FieldSpeaker, FieldDialogSession}

// facetSize is how many of a field's most frequent values a facet lists.
const facetSize = 50

// Search runs a request. A query string that does not parse returns an
// error wrapping ErrBadQuery that says what is wrong.
func (x *Index) Search(r Request) (*Result, error) {
	q, err := buildQuery(r)
	if err != nil {
		return nil, err
	}
	size := r.Size
	if size <= 0 {
		size = DefaultSize
	}
	req := bleve.NewSearchRequestOptions(q, min(size, MaxSize), max(r.From, 0), false)
	req.Fields = []string{FieldKind, FieldSession, FieldThread, FieldEntry, FieldLine, FieldRole, FieldTool, FieldEpisode, FieldSpeaker, FieldSet, FieldDialogSession, FieldTime, FieldContent}
	req.IncludeLocations = true
	if r.Facets && len(r.TimeRanges) > 0 {
		fr := bleve.NewFacetRequest(FieldTime, len(r.TimeRanges))
		for _, tr := range r.TimeRanges {
			fr.AddDateTimeRange(tr.Name, tr.Start, tr.End)
		}
		req.AddFacet("time", fr)
	}
	x.swap.RLock()
	defer x.swap.RUnlock()
	var terms map[string][]FacetCount
	if r.Facets {
		terms, err = x.countFacets(q, facetFields, facetSize)
		if errors.Is(err, errNoColumns) {
			for _, f := range facetFields {
				req.AddFacet(f, bleve.NewFacetRequest(f, facetSize))
			}
		} else if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadQuery, err)
		}
	}
	res, err := x.idx.Search(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadQuery, err)
	}
	out := &Result{Total: res.Total, Hits: make([]Hit, 0, len(res.Hits)), Took: res.Took}
	for _, h := range res.Hits {
		out.Hits = append(out.Hits, toHit(h))
	}
	if r.Facets {
		out.Facets = withFacets(terms, res.Facets)
	}
	return out, nil
}

// withFacets adds the counts of Bleve's facets (the time ranges, and the
// terms where the index had no columns to count them from) to terms.
func withFacets(terms map[string][]FacetCount, facets search.FacetResults) map[string][]FacetCount {
	if terms == nil {
		terms = map[string][]FacetCount{}
	}
	for name, f := range facets {
		counts := []FacetCount{}
		if f.Terms != nil {
			for _, t := range f.Terms.Terms() {
				counts = append(counts, FacetCount{Term: t.Term, Count: t.Count})
			}
		}
		for _, d := range f.DateRanges {
			counts = append(counts, FacetCount{Term: d.Name, Count: d.Count})
		}
		terms[name] = counts
	}
	return terms
}

// buildQuery turns a request into a Bleve query: the text part in the
// request's mode, and a term filter per filter field.
func buildQuery(r Request) (query.Query, error) {
	var main query.Query
	text := strings.TrimSpace(r.Query)
	switch {
	case text == "":
		main = query.NewMatchAllQuery()
	case r.Mode == ModePlain:
		main = plainQuery(text)
	case r.Mode == ModeQuery || r.Mode == "":
		parsed, err := query.NewQueryStringQuery(text).Parse()
		if err != nil {
			return nil, fmt.Errorf("%w %q: %v (quote words to search them literally, or use plain mode)", ErrBadQuery, text, err)
		}
		main = codeQueries(parsed)
	default:
		return nil, fmt.Errorf("%w: unknown mode %q (want %q or %q)", ErrBadQuery, r.Mode, ModeQuery, ModePlain)
	}
	parts := []query.Query{main}
	for field, v := range map[string]string{FieldKind: r.Kind, FieldSession: r.Session, FieldRole: r.Role, FieldTool: r.Tool, FieldSet: r.Set,
		FieldSpeaker: r.Speaker, FieldDialogSession: r.DialogSession} {
		if v != "" {
			parts = append(parts, term(field, v))
		}
	}
	if !r.After.IsZero() || !r.Before.IsZero() {
		var start, end time.Time
		if !r.After.IsZero() {
			start = r.After
		}
		if !r.Before.IsZero() {
			end = r.Before
		}
		yes, no := true, false
		dq := query.NewDateRangeInclusiveQuery(start, end, &yes, &no)
		dq.SetField(FieldTime)
		parts = append(parts, dq)
	}
	if len(parts) == 1 {
		return main, nil
	}
	return query.NewConjunctionQuery(parts), nil
}

// plainQuery requires every whitespace-separated word of text. A simple
// word matches as prose (English analysis, so "tests" finds "testing") or
// as code. A compound word, an identifier or a path, matches only as
// code, where it appears whole or as the end of a longer path:
// "core/agent-session.ts" finds "/repo/src/core/agent-session.ts".
func plainQuery(text string) query.Query {
	words := strings.Fields(text)
	parts := make([]query.Query, 0, len(words))
	for _, w := range words {
		code := query.NewMatchQuery(w)
		code.SetField(FieldCode)
		code.Analyzer = codeQueryAnalyzer
		code.SetOperator(query.MatchQueryOperatorAnd)
		if isCompound(w) {
			parts = append(parts, code)
			continue
		}
		prose := query.NewMatchQuery(w)
		prose.SetField(FieldText)
		prose.SetOperator(query.MatchQueryOperatorAnd)
		parts = append(parts, query.NewDisjunctionQuery([]query.Query{prose, code}))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return query.NewConjunctionQuery(parts)
}

// isCompound reports whether a word has more than one code part.
func isCompound(w string) bool {
	in := []byte(w)
	start, end := nextCompound(in, 0)
	return start >= 0 && len(atomicParts(in, start, end)) > 1
}

// codeQueries gives the match and phrase queries of a parsed query string
// that search the code field the query-time code analyzer, so that an
// identifier or path is looked up whole rather than as any of its parts.
func codeQueries(q query.Query) query.Query {
	onCode := func(field string) bool { return field == "" || field == FieldCode }
	switch x := q.(type) {
	case *query.MatchQuery:
		if onCode(x.FieldVal) && x.Analyzer == "" {
			x.Analyzer = codeQueryAnalyzer
		}
	case *query.MatchPhraseQuery:
		if onCode(x.FieldVal) && x.Analyzer == "" {
			x.Analyzer = codeQueryAnalyzer
		}
	case *query.BooleanQuery:
		for _, sub := range []query.Query{x.Must, x.Should, x.MustNot, x.Filter} {
			if sub != nil {
				codeQueries(sub)
			}
		}
	case *query.ConjunctionQuery:
		for _, sub := range x.Conjuncts {
			codeQueries(sub)
		}
	case *query.DisjunctionQuery:
		for _, sub := range x.Disjuncts {
			codeQueries(sub)
		}
	}
	return q
}

func toHit(h *search.DocumentMatch) Hit {
	str := func(f string) string { s, _ := h.Fields[f].(string); return s }
	hit := Hit{ID: h.ID, Score: h.Score, Kind: str(FieldKind), Session: str(FieldSession), Thread: str(FieldThread),
		Entry: str(FieldEntry), Role: str(FieldRole), Tool: str(FieldTool), Episode: str(FieldEpisode), Speaker: str(FieldSpeaker), Set: str(FieldSet),
		DialogSession: str(FieldDialogSession)}
	if l, ok := h.Fields[FieldLine].(float64); ok {
		hit.Line = int(l)
	}
	if t, err := time.Parse(time.RFC3339, str(FieldTime)); err == nil {
		hit.Time = t
	}
	hit.Fragments = fragments(str(FieldContent), matchSpans(h.Locations))
	return hit
}
