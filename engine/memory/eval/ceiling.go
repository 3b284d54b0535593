package eval

import (
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/memory/retrieve"
)

// Ceiling rows are diagnostics, not retrievers: the context is the
// question's gold evidence turns themselves, or only the facts the
// memory's graph read from them, at whatever tokens that takes. The
// first is what a perfect turn retriever could hold; the second what a
// perfect fact retriever could, which bounds what compact facts can add
// to answer coverage at a small budget.
const (
	GoldTurnsName = "gold turns (ceiling)"
	GoldFactsName = "facts of the gold turns (ceiling)"
)

// Ceiling scores every question of conv against the context of its gold
// evidence rendered in layout: the turns, or with facts the facts read
// from them.
func Ceiling(conv *locomo.Conversation, x *retrieve.Index, facts bool, layout string) []Question {
	var out []Question
	text := turnTexts(conv)
	for i, qa := range conv.QA {
		q := questionOf(conv, i)
		q.scoreContext(x.Evidence(qa.Evidence, facts, layout), text, qa.Answer)
		out = append(out, q)
	}
	return out
}
