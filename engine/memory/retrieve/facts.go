package retrieve

// passageFacts returns, as triple items, the facts read from the passages
// the ranking puts next: the first depth passages of order that the
// context does not hold whole, each passage's facts in the graph's order.
// A fact shows what a turn said in a few tokens, with the time it
// resolved, where the whole turn would not fit. Each is rendered as
// contexts of layout render facts.
func (x *Index) passageFacts(q *query, order []int, taken map[int]bool, depth int, layout string) []Item {
	var out []Item
	seen := map[int]bool{}
	for _, i := range order {
		if depth <= 0 {
			break
		}
		if taken[i] {
			continue
		}
		depth--
		for _, r := range x.factsOf[i] {
			if seen[r] {
				continue
			}
			seen[r] = true
			it := x.factItem(r, layout)
			it.Why = Why{Channel: "passage", Score: q.pass.fused[i], Dense: q.trip.dense[r], Lexical: q.trip.lex[r],
				Via: x.Mem.Passages[i].ID, Origin: string(x.rels[r].Origin), Session: x.rels[r].Session}
			out = append(out, it)
		}
	}
	return out
}

// Evidence renders, as a context in layout, the passages ids, or with
// facts only the facts the graph read from them: what a retriever that
// found exactly those turns, or exactly their facts, would hold. It is
// the ceiling a fact layer is measured against: how much of an answer
// the facts of its evidence carry, and in how many tokens.
func (x *Index) Evidence(ids []string, facts bool, layout string) *Result {
	var passages, triples []Item
	seen := map[int]bool{}
	for _, id := range ids {
		i, ok := x.passageAt[id]
		if !ok {
			continue
		}
		if !facts {
			text := x.lines[i]
			if layout == LayoutSessions {
				text = x.compactLine(i, false)
			}
			passages = append(passages, Item{Kind: "passage", ID: id, Text: text, Passages: []string{id}})
			continue
		}
		for _, r := range x.factsOf[i] {
			if !seen[r] {
				seen[r] = true
				triples = append(triples, x.factItem(r, layout))
			}
		}
	}
	items := append(passages, triples...)
	if len(items) == 0 {
		return &Result{} // nothing to hold: an empty context, not the "nothing found" line
	}
	text := x.render(passages, nil, triples)
	if layout == LayoutSessions {
		text = x.renderSessions(passages, nil, triples)
	}
	return &Result{Items: items, Context: text, Tokens: x.Tokens(text), Turns: turns(items)}
}

// factItem is relation r as a triple item, rendered as contexts of layout
// render facts, without an explanation.
func (x *Index) factItem(r int, layout string) Item {
	rel := x.rels[r]
	return Item{Kind: "triple", ID: rel.ID, Text: x.factLine(r, layout), Passages: rel.Passages}
}
