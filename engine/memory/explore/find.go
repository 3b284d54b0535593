package explore

import (
	"sort"
	"strings"

	"ctxscope/engine/memory"
)

// Match is an entity whose name or an alias matches a search.
type Match struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Aliases []string `json:"aliases"`
}

// FindEntities returns up to limit entities whose name or an alias
// contains text, ignoring case: exact names first, then prefixes, then the
// rest, each tier by name.
func FindEntities(m *memory.Memory, text string, limit int) []Match {
	q := strings.ToLower(strings.TrimSpace(text))
	out := []Match{}
	if q == "" || m.Graph == nil {
		return out
	}
	var tiers [3][]Match
	for _, e := range m.Graph.Entities() {
		best := len(tiers)
		for _, n := range append([]string{e.Name}, e.Aliases...) {
			ln := strings.ToLower(n)
			switch {
			case ln == q:
				best = min(best, 0)
			case strings.HasPrefix(ln, q):
				best = min(best, 1)
			case strings.Contains(ln, q):
				best = min(best, 2)
			}
		}
		if best < len(tiers) {
			tiers[best] = append(tiers[best], Match{ID: e.ID, Name: e.Name, Aliases: append([]string{}, e.Aliases...)})
		}
	}
	for _, t := range tiers {
		sort.SliceStable(t, func(i, j int) bool { return strings.ToLower(t[i].Name) < strings.ToLower(t[j].Name) })
		for _, x := range t {
			if len(out) == limit {
				return out
			}
			out = append(out, x)
		}
	}
	return out
}
