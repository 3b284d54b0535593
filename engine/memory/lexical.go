package memory

import "context"

// Doc is one text for a lexical index.
type Doc struct {
	ID   string
	Text string
}

// Hit is one lexical search result.
type Hit struct {
	ID    string
	Score float64
}

// Lexical is a full-text index ranked by BM25, over one layer's texts.
// Package search/lexical implements it with Bleve; the engine itself
// imports no search library.
type Lexical interface {
	// Search returns the k best documents for a free-text query, best
	// first. A query with no indexable word returns no hits.
	Search(query string, k int) ([]Hit, error)
}

// IndexFunc builds a lexical index over docs. It returns ctx's cause
// when ctx ends first: a session's passages take seconds to index.
type IndexFunc func(ctx context.Context, docs []Doc) (Lexical, error)
