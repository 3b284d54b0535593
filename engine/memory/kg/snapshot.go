package kg

import "fmt"

// Snapshot is a graph as plain data, for storage.
type Snapshot struct {
	Entities  []Entity            `json:"entities"`
	Relations []Relation          `json:"relations"` // insertion order
	Contains  map[string][]string `json:"contains"`
	Merges    []Merge             `json:"merges,omitempty"`
}

// Snapshot copies the graph out.
func (g *Graph) Snapshot() Snapshot {
	s := Snapshot{Contains: make(map[string][]string, len(g.contains))}
	for _, e := range g.Entities() {
		s.Entities = append(s.Entities, *e)
	}
	for _, r := range g.Relations() {
		s.Relations = append(s.Relations, *r)
	}
	for p, es := range g.contains {
		s.Contains[p] = append([]string(nil), es...)
	}
	for _, m := range g.merges {
		s.Merges = append(s.Merges, *m)
	}
	return s
}

// FromSnapshot rebuilds a graph. Entities and aliases are indexed in
// snapshot order, which keeps the first writer of every name.
func FromSnapshot(s Snapshot) (*Graph, error) {
	g := New()
	for _, e := range s.Entities {
		if _, err := g.Add(e); err != nil {
			return nil, fmt.Errorf("kg: snapshot entity %q: %w", e.ID, err)
		}
	}
	for _, r := range s.Relations {
		if _, err := g.Relate(r); err != nil {
			return nil, fmt.Errorf("kg: snapshot relation %q: %w", r.ID, err)
		}
	}
	for p, es := range s.Contains {
		for _, e := range es {
			if err := g.Link(p, e); err != nil {
				return nil, fmt.Errorf("kg: snapshot link %q: %w", p, err)
			}
		}
	}
	for i := range s.Merges {
		m := s.Merges[i]
		g.merges = append(g.merges, &m)
	}
	g.nextID = len(s.Entities) + len(s.Relations)
	return g, nil
}
