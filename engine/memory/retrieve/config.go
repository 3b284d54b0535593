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
	SeedTriples      int `json:"seedTriples"`      // triples that seed the expansion, 6
	Hops             int `json:"hops"`             // expansion depth, 1
	TopTriples       int `json:"topTriples"`       // triples kept after the cut, 36
	Passages         int `json:"passages"`         // passages in the context, 6
	GlobalPassages   int `json:"globalPassages"`   // of which taken first from global search, 2
	GlobalCandidates int `json:"globalCandidates"` // global search depth, 18
	Experiences      int `json:"experiences"`      // experience items in the context, 6
	// LexicalWeight mixes the normalized BM25 score into every ranking:
	// score = (1-w)·cosine + w·bm25/max(bm25). 0 is the released code's
	// dense-only ranking; it needs a lexical index to have an effect.
	LexicalWeight float64 `json:"lexicalWeight"`
	// GlobalExperiences fills the experience budget from a search over all
	// items when the entity-linked ones are fewer (ctxscope's addition;
	// the released code uses only the linked ones).
	GlobalExperiences bool `json:"globalExperiences"`
	// Budget, when positive, assembles a context of at most this many
	// tokens instead of the fixed budgets: passages by fused rank with
	// their neighbours, then triples and experiences in what is left
	// (ctxscope's budgeted mode).
	Budget int `json:"budget"`
	// Neighbours adds, in budgeted mode, the turns right before and after
	// each chosen passage when they fit.
	Neighbours bool `json:"neighbours"`
	// PassageShare is the part of the budget passages fill before triples
	// and items get theirs (in budgeted mode); 0 means 0.7.
	PassageShare float64 `json:"passageShare"`
	// GraphBoost adds, in budgeted mode, this times a chosen triple's
	// score to the passages it was read from.
	GraphBoost float64 `json:"graphBoost"`
	// SpeakerBoost adds, in budgeted mode, this to the turns of the one
	// speaker a question names.
	SpeakerBoost float64 `json:"speakerBoost"`
	// ExperienceBoost adds, in budgeted mode, this times a chosen
	// experience item's score to the passages it was distilled from: the
	// experience layer routes to its evidence.
	ExperienceBoost float64 `json:"experienceBoost"`
	// Feedback adds this times the passages' BM25 score for the words
	// their best FeedbackDocs share (pseudo-relevance feedback); 0 is off.
	Feedback     float64 `json:"feedback"`
	FeedbackDocs int     `json:"feedbackDocs"`
	// SessionPenalty lowers, in budgeted mode, a passage's score by this
	// for each passage of its session already chosen, so that a question
	// whose answers span sessions gets turns from more of them.
	SessionPenalty float64 `json:"sessionPenalty"`
	// SpeakerNamesOut leaves the speakers' names out of the passages'
	// lexical search (SpeakerBoost is the way to favour a speaker).
	SpeakerNamesOut bool `json:"speakerNamesOut"`
	// Layout is how a budgeted context is rendered: LayoutReference ("" is
	// the same) or LayoutSessions.
	Layout string `json:"layout"`
	// PassageFacts adds, in budgeted mode, after the passages' share, the
	// facts read from this many of the next-ranked passages that are not
	// in the context whole, before the triples the graph channel chose.
	PassageFacts int `json:"passageFacts"`
	// FactTokens, when positive, is what passages leave of the budget
	// for the graph's facts and the experience items, in tokens, at every
	// budget (it replaces PassageShare): a few facts cost a few tokens
	// whatever the budget.
	FactTokens int `json:"factTokens"`
	// TimeHints appends to a passage, in the sessions layout, the time its
	// relations resolved (the reference layout always does).
	TimeHints bool `json:"timeHints"`
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

// Budgeted returns ctxscope's budgeted mode with the shipped knobs (see
// Knobs): a context of at most budget tokens. Its index takes the
// knobs' window, DefaultKnobs().Window.
func Budgeted(budget int) Config { return DefaultKnobs().Config(budget) }

// PassagesOnly is cfg with the knowledge graph and the experience layer
// off: the memory's own turn retriever (its window, speaker boost and
// dense fusion) alone, the passages-strong baseline the memory is
// measured against.
func PassagesOnly(cfg Config) Config {
	GraphOff(&cfg)
	ExperiencesOff(&cfg)
	return cfg
}

// GraphOff turns the knowledge graph's part of c off: no triples, and
// none routing to their passages.
func GraphOff(c *Config) {
	c.SeedTriples, c.TopTriples, c.GraphBoost, c.PassageFacts = 0, 0, 0, 0
}

// ExperiencesOff turns the experience layer's part of c off.
func ExperiencesOff(c *Config) {
	c.Experiences, c.ExperienceBoost, c.GlobalExperiences = 0, 0, false
}
