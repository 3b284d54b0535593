package explore

import (
	"fmt"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/kg"
)

// Entity is an entity with everything a panel shows about it.
type Entity struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Aliases []string `json:"aliases"`
	Origin  string   `json:"origin"`
	// Relations are the relations it takes part in, in insertion order.
	Relations []Relation `json:"relations"`
	// Merges are the merges into this entity, the latest last.
	Merges []Merge `json:"merges"`
	// Experiences are the items drawn from passages that mention it.
	Experiences []Item `json:"experiences"`
	// Mentions counts the passages linked to it.
	Mentions int `json:"mentions"`
}

// End is one end of a relation.
type End struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Relation is a relation as a panel shows it.
type Relation struct {
	ID        string `json:"id"`
	Subject   End    `json:"subject"`
	Predicate string `json:"predicate"`
	Object    End    `json:"object"`
	Time      string `json:"time"` // the normalized value, else the source's text
	Gran      string `json:"gran"` // day, month, season, year; "" when not normalized
	Condition string `json:"condition"`
	Origin    string `json:"origin"`
	Session   int    `json:"session"`
	// Passages are the provenance: the passages the relation was read
	// from. A relation from a session review has none, only a session.
	Passages []Passage `json:"passages"`
}

// Merge is a merge into an entity.
type Merge struct {
	ID     string `json:"id"`
	Drop   End    `json:"drop"`
	Reason string `json:"reason"`
	Undone bool   `json:"undone"`
	// Undoable is true for the latest merge still in force of the whole
	// graph: merges are undone last first.
	Undoable bool `json:"undoable"`
}

// Item is an experience item with its sources.
type Item struct {
	ID      string    `json:"id"`
	Type    string    `json:"type"`
	Content string    `json:"content"`
	Cluster string    `json:"cluster"`
	Sources []Passage `json:"sources"`
}

// ErrNoEntity is returned for an unknown entity id.
var ErrNoEntity = kg.ErrNoEntity

// EntityOf returns the view of entity id.
func EntityOf(m *memory.Memory, id string) (*Entity, error) {
	e, ok := m.Graph.Entity(id)
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNoEntity, id)
	}
	out := &Entity{ID: e.ID, Name: e.Name, Aliases: append([]string{}, e.Aliases...), Origin: string(e.Origin),
		Relations: []Relation{}, Merges: []Merge{}, Experiences: []Item{}}
	for _, rid := range m.Graph.Incident(id) {
		if r, ok := m.Graph.Relation(rid); ok {
			out.Relations = append(out.Relations, RelationOf(m, r))
		}
	}
	last := lastInForce(m.Graph.Merges())
	for _, mg := range m.Graph.Merges() {
		if mg.Keep == id {
			out.Merges = append(out.Merges, Merge{ID: mg.ID, Drop: End{mg.Drop.ID, mg.Drop.Name}, Reason: mg.Reason, Undone: mg.Undone, Undoable: mg.ID == last})
		}
	}
	mentioned := map[string]bool{}
	for _, p := range m.Passages {
		for _, x := range m.Graph.Contains(p.ID) {
			if x == id {
				mentioned[p.ID] = true
			}
		}
	}
	out.Mentions = len(mentioned)
	if m.Experience != nil {
		for _, it := range m.Experience.Items() {
			for _, s := range it.Sources {
				if mentioned[s] {
					out.Experiences = append(out.Experiences, item(m, it))
					break
				}
			}
		}
	}
	return out, nil
}

// RelationOf returns the view of a relation.
func RelationOf(m *memory.Memory, r *kg.Relation) Relation {
	out := Relation{ID: r.ID, Subject: end(m, r.Subject), Predicate: r.Predicate, Object: end(m, r.Object), Time: r.TimeString(),
		Condition: r.Condition, Origin: string(r.Origin), Session: r.Session, Passages: passages(m, r.Passages)}
	if !r.Time.IsZero() {
		out.Gran = r.Time.Gran.String()
	}
	return out
}

func end(m *memory.Memory, id string) End {
	if e, ok := m.Graph.Entity(id); ok {
		return End{e.ID, e.Name}
	}
	return End{ID: id, Name: id}
}

func item(m *memory.Memory, it cluster.Experience) Item {
	return Item{ID: it.ID, Type: string(it.Type), Content: it.Content, Cluster: it.Cluster, Sources: passages(m, it.Sources)}
}

// lastInForce returns the id of the latest merge not undone, "" when none.
func lastInForce(ms []*kg.Merge) string {
	for i := len(ms) - 1; i >= 0; i-- {
		if !ms[i].Undone {
			return ms[i].ID
		}
	}
	return ""
}
