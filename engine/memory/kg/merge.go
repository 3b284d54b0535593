package kg

import (
	"errors"
	"fmt"
	"strings"
)

// Merge records one entity merged into another so that a user can see it
// and undo it.
type Merge struct {
	ID     string `json:"id"`
	Keep   string `json:"keep"` // the surviving entity id
	Drop   Entity `json:"drop"` // the merged entity as it was
	Reason string `json:"reason"`
	// Subjects and Objects are the relations whose subject or object was
	// the dropped entity; Links the passages whose link moved.
	Subjects []string `json:"subjects,omitempty"`
	Objects  []string `json:"objects,omitempty"`
	Links    []string `json:"links,omitempty"`
	// KeptLinks are passages that already linked Keep too: undo leaves
	// those links alone.
	KeptLinks []string `json:"keptLinks,omitempty"`
	KeptAt    []int    `json:"keptAt,omitempty"` // drop's position in each kept link list
	Undone    bool     `json:"undone,omitempty"`
}

// ErrUndoOrder is returned when a merge is undone before a later one that
// is still in force.
var ErrUndoOrder = errors.New("kg: undo later merges first")

// MergeEntities merges entity drop into keep: drop's relations and links
// move to keep, drop's name and aliases become keep's aliases, and drop
// disappears. The merge is recorded with reason and returned.
func (g *Graph) MergeEntities(keep, drop, reason string) (*Merge, error) {
	k, d := g.entities[keep], g.entities[drop]
	if k == nil || d == nil || keep == drop {
		return nil, fmt.Errorf("%w: merge %q into %q", ErrNoEntity, drop, keep)
	}
	m := &Merge{ID: fmt.Sprintf("m%d", len(g.merges)+1), Keep: keep, Drop: *d, Reason: reason}
	m.Drop.Aliases = append([]string(nil), d.Aliases...)
	for _, rid := range g.incident[drop] {
		r := g.relations[rid]
		if r.Subject == drop {
			r.Subject = keep
			m.Subjects = append(m.Subjects, rid)
		}
		if r.Object == drop {
			r.Object = keep
			m.Objects = append(m.Objects, rid)
		}
		if !hasID(g.incident[keep], rid) {
			g.incident[keep] = append(g.incident[keep], rid)
		}
	}
	delete(g.incident, drop)
	for p, es := range g.contains {
		if !hasID(es, drop) {
			continue
		}
		m.Links = append(m.Links, p)
		if hasID(es, keep) {
			m.KeptLinks = append(m.KeptLinks, p)
			m.KeptAt = append(m.KeptAt, indexOf(es, drop))
			g.contains[p] = without(es, drop)
		} else {
			es[indexOf(es, drop)] = keep
		}
	}
	k.Aliases = append(k.Aliases, append([]string{d.Name}, d.Aliases...)...)
	for key, id := range g.byName {
		if id == drop {
			g.byName[key] = keep
		}
	}
	delete(g.entities, drop)
	g.merges = append(g.merges, m)
	return m, nil
}

// Merges returns every merge made, in order, undone ones included.
func (g *Graph) Merges() []*Merge { return g.merges }

// Undo reverses merge id. Merges are undone last first: undoing one while
// a later merge is still in force returns [ErrUndoOrder].
func (g *Graph) Undo(id string) error {
	at := -1
	for i, m := range g.merges {
		if m.ID == id {
			at = i
		}
	}
	if at < 0 || g.merges[at].Undone {
		return fmt.Errorf("kg: no merge %q in force", id)
	}
	for _, later := range g.merges[at+1:] {
		if !later.Undone {
			return ErrUndoOrder
		}
	}
	m := g.merges[at]
	d := m.Drop
	g.entities[d.ID] = &d
	k := g.entities[m.Keep]
	k.Aliases = k.Aliases[:len(k.Aliases)-1-len(d.Aliases)]
	if len(k.Aliases) == 0 {
		k.Aliases = nil
	}
	for _, n := range append([]string{d.Name}, d.Aliases...) {
		if g.byName[Key(n)] == m.Keep && !g.names(k, n) {
			g.byName[Key(n)] = d.ID
		}
	}
	g.restoreEnds(m)
	for _, p := range m.Links {
		if i := indexOf(m.KeptLinks, p); i >= 0 {
			g.contains[p] = insertAt(g.contains[p], m.KeptAt[i], d.ID)
		} else {
			g.contains[p][indexOf(g.contains[p], m.Keep)] = d.ID
		}
	}
	m.Undone = true
	return nil
}

// names reports whether entity e is itself called n.
func (g *Graph) names(e *Entity, n string) bool {
	if strings.EqualFold(e.Name, n) {
		return true
	}
	for _, a := range e.Aliases {
		if strings.EqualFold(a, n) {
			return true
		}
	}
	return false
}

func (g *Graph) restoreEnds(m *Merge) {
	moved := map[string]bool{}
	for _, rid := range m.Subjects {
		if r, ok := g.relations[rid]; ok { // a later dedup or deny may have removed it
			r.Subject = m.Drop.ID
			moved[rid] = true
		}
	}
	for _, rid := range m.Objects {
		if r, ok := g.relations[rid]; ok {
			r.Object = m.Drop.ID
			moved[rid] = true
		}
	}
	var keepIDs, dropIDs []string
	for _, rid := range g.incident[m.Keep] {
		r := g.relations[rid]
		if moved[rid] {
			dropIDs = append(dropIDs, rid)
		}
		if r.Subject == m.Keep || r.Object == m.Keep {
			keepIDs = append(keepIDs, rid)
		}
	}
	g.incident[m.Keep] = keepIDs
	g.incident[m.Drop.ID] = dropIDs
}

func hasID(ids []string, id string) bool { return indexOf(ids, id) >= 0 }

func indexOf(ids []string, id string) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}

func insertAt(ids []string, i int, id string) []string {
	i = min(max(i, 0), len(ids))
	ids = append(ids, "")
	copy(ids[i+1:], ids[i:])
	ids[i] = id
	return ids
}
