package search

import (
	"context"
	"encoding/binary"
	"errors"
	"sort"
	"sync"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// Facet counting.
//
// Bleve counts facets by reading each hit's doc values, field by field,
// which costs a few hundred nanoseconds a hit a field: 28 ms for the six
// facet fields of a common word's 20,000 hits. The facet fields are
// keywords with few values, so ctxscope keeps, per index snapshot, a
// column per field that maps a document number to its values (built once
// from the fields' postings), and counts a query's facets by walking its
// matches unscored and reading the columns. The counts are Bleve's: the
// same terms, the same order (count descending, then term), the same top
// n; TestFacetColumnsCountAsBleve checks them against Bleve's own.

// errNoColumns reports an index whose document ids are not scorch's
// document numbers; facets are then left to Bleve.
var errNoColumns = errors.New("search: facet columns need scorch document numbers")

// facetColumns caches the columns of the snapshot facets were last
// counted on. Segment merges renumber documents, so a column describes one
// snapshot only.
type facetColumns struct {
	mu       sync.Mutex
	snapshot index.IndexReader // compared, never used: the snapshot the columns describe
	columns  map[string]*column
}

// column holds one keyword field's values by document number.
type column struct {
	terms []string
	// first is each document's first value (an index into terms), or -1.
	first []int32
	// more holds the further values of the rare documents with several.
	more map[uint64][]int32
}

// docNumber decodes a scorch internal id.
func docNumber(id index.IndexInternalID) (uint64, bool) {
	if len(id) != 8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(id), true
}

// buildColumn reads field's terms and postings from r.
func buildColumn(ctx context.Context, r index.IndexReader, field string) (*column, error) {
	dict, err := r.FieldDict(field)
	if err != nil {
		return nil, err
	}
	c := &column{more: map[uint64][]int32{}}
	for {
		e, err := dict.Next()
		if err != nil {
			dict.Close()
			return nil, err
		}
		if e == nil {
			break
		}
		c.terms = append(c.terms, e.Term)
	}
	if err := dict.Close(); err != nil {
		return nil, err
	}
	for ord, term := range c.terms {
		tfr, err := r.TermFieldReader(ctx, []byte(term), field, false, false, false)
		if err != nil {
			return nil, err
		}
		var tfd *index.TermFieldDoc
		for {
			tfd, err = tfr.Next(tfd)
			if err != nil || tfd == nil {
				break
			}
			n, ok := docNumber(tfd.ID)
			if !ok {
				err = errNoColumns
				break
			}
			c.add(n, int32(ord))
		}
		tfr.Close()
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

// add records that document n has the term with index ord.
func (c *column) add(n uint64, ord int32) {
	for uint64(len(c.first)) <= n {
		c.first = append(c.first, -1)
	}
	if c.first[n] < 0 {
		c.first[n] = ord
		return
	}
	c.more[n] = append(c.more[n], ord)
}

// count adds document n's values to counts.
func (c *column) count(n uint64, counts []int) {
	if n >= uint64(len(c.first)) || c.first[n] < 0 {
		return
	}
	counts[c.first[n]]++
	if len(c.more) > 0 {
		for _, o := range c.more[n] {
			counts[o]++
		}
	}
}

// top returns the size most frequent terms, as Bleve orders them.
func (c *column) top(counts []int, size int) []FacetCount {
	out := []FacetCount{}
	for i, n := range counts {
		if n > 0 {
			out = append(out, FacetCount{Term: c.terms[i], Count: n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Term < out[j].Term
	})
	if len(out) > size {
		out = out[:size]
	}
	return out
}

// columnsFor returns the columns of fields for snapshot r, building them
// when r is not the snapshot they were last built for.
func (fc *facetColumns) columnsFor(ctx context.Context, r index.IndexReader, fields []string) ([]*column, error) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if fc.snapshot != r {
		fc.snapshot, fc.columns = nil, map[string]*column{}
	}
	out := make([]*column, len(fields))
	for i, f := range fields {
		c := fc.columns[f]
		if c == nil {
			var err error
			if c, err = buildColumn(ctx, r, f); err != nil {
				return nil, err
			}
			fc.columns[f] = c
		}
		out[i] = c
	}
	fc.snapshot = r
	return out, nil
}

// countFacets counts the terms of fields over every match of q, the size
// most frequent of each. The caller holds x.swap for reading.
func (x *Index) countFacets(q query.Query, fields []string, size int) (map[string][]FacetCount, error) {
	ctx := context.Background()
	adv, err := x.idx.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cols, err := x.facets.columnsFor(ctx, r, fields)
	if err != nil {
		return nil, err
	}
	s, err := q.Searcher(ctx, r, x.idx.Mapping(), search.SearcherOptions{Score: "none"})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	sctx := &search.SearchContext{DocumentMatchPool: search.NewDocumentMatchPool(s.DocumentMatchPoolSize(), 0)}
	counts := make([][]int, len(cols))
	for i, c := range cols {
		counts[i] = make([]int, len(c.terms))
	}
	for {
		dm, err := s.Next(sctx)
		if err != nil {
			return nil, err
		}
		if dm == nil {
			break
		}
		n, ok := docNumber(dm.IndexInternalID)
		if !ok {
			return nil, errNoColumns
		}
		for i, c := range cols {
			c.count(n, counts[i])
		}
		sctx.DocumentMatchPool.Put(dm)
	}
	out := make(map[string][]FacetCount, len(fields))
	for i, f := range fields {
		out[f] = cols[i].top(counts[i], size)
	}
	return out, nil
}
