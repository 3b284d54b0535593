package retrieve

import (
	"context"
	"fmt"
	"strings"
)

// Item is one retrieved passage, triple or experience item.
type Item struct {
	Kind string `json:"kind"` // "passage", "triple" or "experience"
	ID   string `json:"id"`
	// Text is the item's line in the assembled context.
	Text string `json:"text"`
	// Passages are the passage ids the item stands for: the passage
	// itself, a triple's provenance, an experience's sources.
	Passages []string `json:"passages,omitempty"`
	Why      Why      `json:"why"`
}

// Why explains how an item was found.
type Why struct {
	// Channel is "seed" or "hop" for triples, or "passage" for a fact of
	// a next-ranked turn (Via names the turn); "kg" (linked to a chosen
	// triple's entity), "global" or "neighbour" for passages; "linked" or
	// "global" for experiences.
	Channel string  `json:"channel"`
	Score   float64 `json:"score"`   // the fused score that ranked it
	Dense   float64 `json:"dense"`   // cosine similarity to the question
	Lexical float64 `json:"lexical"` // BM25 normalized to the best hit
	Hop     int     `json:"hop,omitempty"`
	Seed    string  `json:"seed,omitempty"` // the seed triple an expanded triple came from
	Via     string  `json:"via,omitempty"`  // the entity (or passage) that linked it
	Origin  string  `json:"origin,omitempty"`
	Session int     `json:"session,omitempty"`
}

// Result is the answer to one query.
type Result struct {
	Question string `json:"question"`
	Items    []Item `json:"items"`
	Context  string `json:"context"`
	Tokens   int    `json:"tokens"` // of Context
	// Turns are the distinct passage ids the context covers, in item
	// order: its passages and the provenance of its triples and items.
	Turns []string `json:"turns"`
}

// query is one question's working state.
type query struct {
	text             string
	pass, trip, exps scores
}

// Retrieve runs the retrieval for a question with configuration cfg.
func (x *Index) Retrieve(ctx context.Context, question string, cfg Config) (*Result, error) {
	q, err := x.prepare(ctx, question, cfg)
	if err != nil {
		return nil, err
	}
	triples := x.selectTriples(q, cfg)
	var passages, exps []Item
	if cfg.Budget > 0 {
		return x.budgeted(q, cfg, triples)
	}
	passages = x.selectPassages(q, cfg, triples)
	exps = x.selectExperiences(q, cfg, triples, cfg.Experiences)
	items := append(append(passages, exps...), triples...)
	res := &Result{Question: question, Items: items}
	res.Context = x.render(passages, exps, triples)
	res.Tokens = x.Tokens(res.Context)
	res.Turns = turns(items)
	return res, nil
}

func (x *Index) prepare(ctx context.Context, question string, cfg Config) (*query, error) {
	if strings.TrimSpace(question) == "" {
		return nil, fmt.Errorf("retrieve: empty question")
	}
	vs, err := x.emb.Embed(ctx, []string{question})
	if err != nil {
		return nil, fmt.Errorf("retrieve: embed question: %w", err)
	}
	q := &query{text: question}
	passageQuery := question
	if cfg.SpeakerNamesOut {
		passageQuery = x.withoutSpeakers(question)
	}
	if q.pass, err = x.passages.score(vs[0], passageQuery, cfg.LexicalWeight); err != nil {
		return nil, err
	}
	if err := x.feedback(q, cfg.Feedback, max(cfg.FeedbackDocs, 2)); err != nil {
		return nil, err
	}
	if q.trip, err = x.triples.score(vs[0], question, cfg.LexicalWeight); err != nil {
		return nil, err
	}
	if q.exps, err = x.exps.score(vs[0], question, cfg.LexicalWeight); err != nil {
		return nil, err
	}
	return q, nil
}

func turns(items []Item) []string {
	seen := map[string]bool{}
	var out []string
	for _, it := range items {
		for _, p := range it.Passages {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// withoutSpeakers removes the speakers' names from a question, for the
// passages' lexical search: every turn of a speaker is theirs whether or
// not it names them, and the turns that do name them are mostly the other
// speaker's.
func (x *Index) withoutSpeakers(question string) string {
	out := question
	for _, s := range x.Mem.Speakers {
		if s == "" {
			continue
		}
		for _, form := range []string{s + "'s", s + "’s", s} {
			out = strings.ReplaceAll(out, form, " ")
		}
	}
	if strings.TrimSpace(out) == "" {
		return question
	}
	return out
}
