package retrieve

import (
	"strings"
)

// selectTriples picks seeds, expands them hop by hop over the seeds'
// entities, cuts the candidates to the best cfg.TopTriples and drops
// duplicates of (subject, predicate, object, time).
func (x *Index) selectTriples(q *query, cfg Config) []Item {
	type cand struct {
		hop  int
		seed string
	}
	cands := map[int]cand{}
	var order []int
	seeds := top(all(len(x.rels)), q.trip.fused, cfg.SeedTriples)
	frontier := map[string]string{} // entity -> seed relation id
	for _, i := range seeds {
		cands[i] = cand{0, x.rels[i].ID}
		order = append(order, i)
		frontier[x.rels[i].Subject] = x.rels[i].ID
		frontier[x.rels[i].Object] = x.rels[i].ID
	}
	for hop := 1; hop <= cfg.Hops; hop++ {
		next := map[string]string{}
		for _, e := range sortedKeys(frontier) {
			for _, rid := range x.Mem.Graph.Incident(e) {
				i, indexed := x.relAt[rid]
				if _, ok := cands[i]; ok || !indexed {
					continue
				}
				cands[i] = cand{hop, frontier[e]}
				order = append(order, i)
				r := x.rels[i]
				for _, end := range []string{r.Subject, r.Object} {
					if _, ok := frontier[end]; !ok {
						next[end] = frontier[e]
					}
				}
			}
		}
		frontier = next
	}
	seen := map[string]bool{}
	var out []Item
	for _, i := range top(order, q.trip.fused, cfg.TopTriples) {
		r := x.rels[i]
		key := r.Subject + "\x00" + strings.ToLower(r.Predicate) + "\x00" + r.Object + "\x00" + r.TimeString()
		if seen[key] {
			continue
		}
		seen[key] = true
		c := cands[i]
		ch := "seed"
		if c.hop > 0 {
			ch = "hop"
		}
		out = append(out, Item{Kind: "triple", ID: r.ID, Text: x.renderTriple(i), Passages: r.Passages,
			Why: Why{Channel: ch, Score: q.trip.fused[i], Dense: q.trip.dense[i], Lexical: q.trip.lex[i],
				Hop: c.hop, Seed: seedOf(c.seed, r.ID), Origin: string(r.Origin), Session: r.Session}})
	}
	return out
}

func seedOf(seed, id string) string {
	if seed == id {
		return ""
	}
	return seed
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}

// kgPassages returns the passages linked to the chosen triples' entities,
// best first, each with the entity that linked it.
func (x *Index) kgPassages(q *query, triples []Item) ([]int, map[int]string) {
	via := map[int]string{}
	var cands []int
	for _, t := range triples {
		r := x.rels[x.relAt[t.ID]]
		for _, e := range []string{r.Subject, r.Object} {
			for _, p := range x.linked[e] {
				if _, ok := via[p]; !ok {
					via[p] = e
					cands = append(cands, p)
				}
			}
		}
	}
	return top(cands, q.pass.fused, len(cands)), via
}

// selectPassages fills the passage budget in the released code's order:
// the mandatory global ones, then KG-linked, then more global, then more
// KG-linked.
func (x *Index) selectPassages(q *query, cfg Config, triples []Item) []Item {
	kg, via := x.kgPassages(q, triples)
	global := top(all(len(x.Mem.Passages)), q.pass.fused, cfg.GlobalCandidates)
	var out []Item
	taken := map[int]bool{}
	texts := map[string]bool{}
	take := func(list []int, limit int, channel string) {
		for _, i := range list {
			if len(out) >= limit {
				return
			}
			p := x.Mem.Passages[i]
			if taken[i] || texts[p.Text] {
				continue
			}
			taken[i], texts[p.Text] = true, true
			out = append(out, x.passageItem(q, i, channel, via[i]))
		}
	}
	take(global, min(cfg.GlobalPassages, cfg.Passages), "global")
	take(kg, cfg.Passages, "kg")
	take(global, cfg.Passages, "global")
	take(kg, cfg.Passages, "kg")
	return out
}

func (x *Index) passageItem(q *query, i int, channel, via string) Item {
	p := x.Mem.Passages[i]
	return Item{Kind: "passage", ID: p.ID, Text: x.lines[i], Passages: []string{p.ID},
		Why: Why{Channel: channel, Score: q.pass.fused[i], Dense: q.pass.dense[i], Lexical: q.pass.lex[i], Via: via, Session: p.Session}}
}

// selectExperiences takes the items about the chosen triples' entities,
// best first, and, when allowed, fills up from all items.
func (x *Index) selectExperiences(q *query, cfg Config, triples []Item, limit int) []Item {
	via := map[int]string{}
	var linked []int
	for _, t := range triples {
		r := x.rels[x.relAt[t.ID]]
		for _, e := range []string{r.Subject, r.Object} {
			for _, i := range x.about[e] {
				if _, ok := via[i]; !ok {
					via[i] = e
					linked = append(linked, i)
				}
			}
		}
	}
	var out []Item
	seen := map[string]bool{}
	take := func(list []int, channel string) {
		for _, i := range list {
			it := x.items[i]
			if len(out) >= limit || seen[it.Content] {
				continue
			}
			seen[it.Content] = true
			out = append(out, Item{Kind: "experience", ID: it.ID, Text: it.Content, Passages: it.Sources,
				Why: Why{Channel: channel, Score: q.exps.fused[i], Dense: q.exps.dense[i], Lexical: q.exps.lex[i], Via: via[i], Origin: string(it.Type)}})
		}
	}
	take(top(linked, q.exps.fused, len(linked)), "linked")
	if cfg.GlobalExperiences {
		take(top(all(len(x.items)), q.exps.fused, limit), "global")
	}
	return out
}
