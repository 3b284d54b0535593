package kg

import "strings"

// Dedup removes relations that repeat an earlier one's subject, predicate
// and object (and time, when withTime), ignoring the condition, as the
// reference's dedup_relations_ignore_condition does; the first one stays,
// taking over the later ones' passages. It returns how many it removed.
func (g *Graph) Dedup(withTime bool) int {
	seen := map[string]*Relation{}
	removed := map[string]bool{}
	for _, id := range g.order {
		r := g.relations[id]
		key := r.Subject + "\x00" + strings.ToLower(r.Predicate) + "\x00" + r.Object
		if withTime {
			key += "\x00" + r.TimeString()
		}
		first, dup := seen[key]
		if !dup {
			seen[key] = r
			continue
		}
		for _, p := range r.Passages {
			if !hasID(first.Passages, p) {
				first.Passages = append(first.Passages, p)
			}
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
