package kg

import "strings"

// Dedup removes relations that repeat an earlier one's subject, predicate
// and object (and time, when withTime), ignoring the condition, as the
// reference's dedup_relations_ignore_condition does: the first one stays
// with its own provenance, and the later ones' passages are not merged
// into it (a fact said in fifty turns must not make one triple stand for
// all fifty). It returns how many it removed.
func (g *Graph) Dedup(withTime bool) int {
	seen := map[string]*Relation{}
	removed := map[string]bool{}
	for _, id := range g.order {
		r := g.relations[id]
		key := r.Subject + "\x00" + strings.ToLower(r.Predicate) + "\x00" + r.Object
		if withTime {
			key += "\x00" + r.TimeString()
		}
		if _, dup := seen[key]; !dup {
			seen[key] = r
			continue
		}
		removed[id] = true
	}
	if len(removed) == 0 {
		return 0
	}
	keep := func(ids []string) []string {
		out := ids[:0]
		for _, id := range ids {
			if !removed[id] {
				out = append(out, id)
			}
		}
		return out
	}
	g.order = keep(g.order)
	for e, ids := range g.incident {
		g.incident[e] = keep(ids)
	}
	for id := range removed {
		delete(g.relations, id)
	}
	return len(removed)
}
