// Package retrieve answers a question from a tri-layer memory with the
// dual-channel retrieval of MemWeaver's released code (seed triples by
// similarity, one-hop expansion, a top-k cut, KG-linked passages and a
// global passage channel, experiences linked to the chosen entities),
// plus a lexical BM25 signal fused with the dense scores, and assembles
// the result into a prompt block with its token count. Every item carries
// an explanation of how it was found.
package retrieve

// Config holds retrieval budgets and weights.
type Config struct {
	SeedTriples      int // triples that seed the expansion, 6
	Hops             int // expansion depth, 1
	TopTriples       int // triples kept after the cut, 36
	Passages         int // passages in the context, 6
	GlobalPassages   int // of which taken first from global search, 2
	GlobalCandidates int // global search depth, 18
	Experiences      int // experience items in the context, 6
	// LexicalWeight mixes the normalized BM25 score into every ranking:
	// score = (1-w)·cosine + w·bm25/max(bm25). 0 is the released code's
	// dense-only ranking; it needs a lexical index to have an effect.
	LexicalWeight float64
	// GlobalExperiences fills the experience budget from a search over all
	// items when the entity-linked ones are fewer (ctxscope's addition;
	// the released code uses only the linked ones).
	GlobalExperiences bool
	// Budget, when positive, assembles a context of at most this many
	// tokens instead of the fixed budgets: passages by fused rank with
	// their neighbours, then triples and experiences in what is left
	// (ctxscope's budgeted mode).
	Budget int
	// Neighbours adds, in budgeted mode, the turns right before and after
	// each chosen passage when they fit.
	Neighbours bool
	// PassageShare is the part of the budget passages fill before triples
	// and items get theirs (in budgeted mode); 0 means 0.7.
	PassageShare float64
	// GraphBoost adds, in budgeted mode, this times a chosen triple's
	// score to the passages it was read from.
	GraphBoost float64
	// SpeakerBoost adds, in budgeted mode, this to the turns of the one
	// speaker a question names.
	SpeakerBoost float64
}

// Released returns the released code's budgets with dense-only ranking
// (the compatibility mode).
func Released() Config {
	return Config{SeedTriples: 6, Hops: 1, TopTriples: 36, Passages: 6, GlobalPassages: 2, GlobalCandidates: 18, Experiences: 6}
}

// Default returns ctxscope's default: the released budgets with BM25
// fused into every ranking and global experiences as a fallback.
func Default() Config {
	c := Released()
	c.LexicalWeight = 0.5
	c.GlobalExperiences = true
	return c
}

// Budgeted returns ctxscope's budgeted mode: a context of at most budget
// tokens, passages first with their neighbours.
func Budgeted(budget int) Config {
	c := Default()
	c.Budget, c.Neighbours, c.PassageShare = budget, true, 0.7
	return c
}
