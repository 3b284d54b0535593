// Package lexical is the memory's BM25 channel: an in-memory Bleve index
// with the English analyzer (lower-casing, stop words, possessives, Porter
// stemming) and Bleve's BM25 scoring. It implements memory.Lexical.
package lexical

import (
	"context"
	"fmt"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"ctxscope/engine/memory"
)

// Index is an in-memory BM25 index. It is safe for concurrent searches.
type Index struct {
	idx bleve.Index
}

type doc struct {
	Text string `json:"text"`
}

// New indexes docs in memory.
func New(docs []memory.Doc) (*Index, error) { return NewContext(context.Background(), docs) }

// batchDocs is how many documents NewContext indexes between looks at its
// context: about 20 ms of indexing here.
const batchDocs = 256

// NewContext indexes docs in memory, in batches, and returns ctx's cause,
// having released what it built, when ctx ends first.
func NewContext(ctx context.Context, docs []memory.Doc) (*Index, error) {
	m := bleve.NewIndexMapping()
	m.DefaultAnalyzer = en.AnalyzerName
	m.ScoringModel = index.BM25Scoring
	dm := bleve.NewDocumentMapping()
	f := mapping.NewTextFieldMapping()
	f.Analyzer = en.AnalyzerName
	f.Store = false
	f.IncludeTermVectors = false
	dm.AddFieldMappingsAt("text", f)
	m.DefaultMapping = dm
	idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("lexical: new index: %w", err)
	}
	for start := 0; start < len(docs); start += batchDocs {
		if err := context.Cause(ctx); err != nil {
			idx.Close()
			return nil, err
		}
		b := idx.NewBatch()
		for _, d := range docs[start:min(start+batchDocs, len(docs))] {
			if err := b.Index(d.ID, doc{d.Text}); err != nil {
				idx.Close()
				return nil, fmt.Errorf("lexical: index %s: %w", d.ID, err)
			}
		}
		if err := idx.Batch(b); err != nil {
			idx.Close()
			return nil, fmt.Errorf("lexical: index batch: %w", err)
		}
	}
	return &Index{idx: idx}, nil
}

// Build is New as a memory.IndexFunc.
func Build(ctx context.Context, docs []memory.Doc) (memory.Lexical, error) {
	return NewContext(ctx, docs)
}

// Search runs the query as a disjunction of its analysed words (a Bleve
// match query with the "or" operator) and returns the k best hits, equal
// scores ordered by id.
func (x *Index) Search(q string, k int) ([]memory.Hit, error) {
	if strings.TrimSpace(q) == "" || k <= 0 {
		return nil, nil
	}
	mq := query.NewMatchQuery(q)
	mq.SetField("text")
	mq.Analyzer = en.AnalyzerName
	req := bleve.NewSearchRequestOptions(mq, k, 0, false)
	req.SortBy([]string{"-_score", "_id"}) // ties by id, so results do not depend on indexing order
	res, err := x.idx.Search(req)
	if err != nil {
		return nil, fmt.Errorf("lexical: search: %w", err)
	}
	out := make([]memory.Hit, len(res.Hits))
	for i, h := range res.Hits {
		out[i] = memory.Hit{ID: h.ID, Score: h.Score}
	}
	return out, nil
}

// Close releases the index.
func (x *Index) Close() error { return x.idx.Close() }
