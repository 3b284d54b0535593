// Package kg is the graph layer of the memory: entities, temporal triples
// between them with their provenance, and the "contains" links from
// passages to the entities they mention. Entities can be merged under
// aliases; every merge is recorded and can be undone.
package kg

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"ctxscope/engine/memory/temporal"
)

// Origin tells which writer put an entity or relation in the graph.
type Origin string

// Origins.
const (
	Extracted Origin = "extracted" // from one passage by an extractor
	Reviewed  Origin = "reviewed"  // added or changed by a session review
	Imported  Origin = "imported"  // loaded from an exported graph
)

// Entity is a node of the graph.
type Entity struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Aliases []string `json:"aliases,omitempty"`
	Origin  Origin   `json:"origin"`
	// Type is what the entity is, when the extractor says: person,
	// place, organisation, event, object or activity (see
	// memory.EntityTypes).
	Type string `json:"type,omitempty"`
}

// Relation is a temporal triple: subject predicate object, at a time,
// under a condition, with the passages it was read from.
type Relation struct {
	ID        string `json:"id"`
	Subject   string `json:"subject"` // entity id
	Predicate string `json:"predicate"`
	Object    string `json:"object"` // entity id
	// Time is the normalized time of the fact; zero when none is known.
	Time temporal.Value `json:"time"`
	// TimeText keeps a source time that does not normalize ("last week"
	// in an imported graph); empty when Time says it all.
	TimeText  string `json:"timeText,omitempty"`
	Condition string `json:"condition,omitempty"`
	// Passages are the ids of the passages the triple came from. A review
	// that saw a whole session leaves it empty and sets only Session.
	Passages []string `json:"passages,omitempty"`
	Session  int      `json:"session,omitempty"`
	Origin   Origin   `json:"origin"`
}

// TimeString returns the relation's time as text: the normalized value,
// else the source's own text.
func (r *Relation) TimeString() string {
	if !r.Time.IsZero() {
		return r.Time.String()
	}
	return r.TimeText
}

// Errors returned by graph edits.
var (
	ErrNoEntity   = errors.New("kg: no such entity")
	ErrNoRelation = errors.New("kg: no such relation")
	ErrEmpty      = errors.New("kg: empty name or predicate")
)

// Graph is an in-memory temporal knowledge graph. It is not safe for
// concurrent writes; concurrent reads are fine.
type Graph struct {
	entities  map[string]*Entity
	relations map[string]*Relation
	order     []string            // relation ids in insertion order
	byName    map[string]string   // lower-cased name or alias -> entity id; first writer wins
	incident  map[string][]string // entity id -> relation ids, both directions
	contains  map[string][]string // passage id -> entity ids
	merges    []*Merge
	nextID    int
}

// New returns an empty graph.
func New() *Graph {
	return &Graph{
		entities: map[string]*Entity{}, relations: map[string]*Relation{},
		byName: map[string]string{}, incident: map[string][]string{}, contains: map[string][]string{},
	}
}

func (g *Graph) newID(prefix string) string {
	for {
		g.nextID++
		id := fmt.Sprintf("%s%d", prefix, g.nextID)
		if g.entities[id] == nil && g.relations[id] == nil {
			return id
		}
	}
}

// Key returns the lookup key of a name: trimmed and lower-cased.
func Key(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// Lookup returns the entity with the given name or alias, compared
// without case.
func (g *Graph) Lookup(name string) (*Entity, bool) {
	id, ok := g.byName[Key(name)]
	if !ok {
		return nil, false
	}
	return g.entities[id], true
}

// Entity returns the entity with the given id.
func (g *Graph) Entity(id string) (*Entity, bool) {
	e, ok := g.entities[id]
	return e, ok
}

// Relation returns the relation with the given id.
func (g *Graph) Relation(id string) (*Relation, bool) {
	r, ok := g.relations[id]
	return r, ok
}

// Ensure returns the entity named name, creating it with origin o when no
// entity has that name or alias.
func (g *Graph) Ensure(name string, o Origin) (*Entity, error) {
	if e, ok := g.Lookup(name); ok {
		return e, nil
	}
	return g.Add(Entity{Name: name, Origin: o})
}

// Add inserts e as a new entity, assigning an id when e.ID is empty. Its
// name and aliases are indexed unless another entity holds them already.
func (g *Graph) Add(e Entity) (*Entity, error) {
	e.Name = strings.TrimSpace(e.Name)
	if e.Name == "" {
		return nil, ErrEmpty
	}
	if e.ID == "" {
		e.ID = g.newID("e")
	}
	if g.entities[e.ID] != nil {
		return nil, fmt.Errorf("kg: duplicate entity id %q", e.ID)
	}
	p := &e
	g.entities[e.ID] = p
	for _, n := range append([]string{e.Name}, e.Aliases...) {
		if _, taken := g.byName[Key(n)]; !taken {
			g.byName[Key(n)] = e.ID
		}
	}
	return p, nil
}

// Relate inserts r, assigning an id when r.ID is empty. Both ends must be
// entities of the graph and the predicate must not be empty.
func (g *Graph) Relate(r Relation) (*Relation, error) {
	r.Predicate = strings.TrimSpace(r.Predicate)
	if r.Predicate == "" {
		return nil, ErrEmpty
	}
	for _, end := range []string{r.Subject, r.Object} {
		if g.entities[end] == nil {
			return nil, fmt.Errorf("%w: %q", ErrNoEntity, end)
		}
	}
	if r.ID == "" {
		r.ID = g.newID("r")
	}
	if g.relations[r.ID] != nil {
		return nil, fmt.Errorf("kg: duplicate relation id %q", r.ID)
	}
	p := &r
	g.relations[r.ID] = p
	g.order = append(g.order, r.ID)
	g.incident[r.Subject] = append(g.incident[r.Subject], r.ID)
	if r.Object != r.Subject {
		g.incident[r.Object] = append(g.incident[r.Object], r.ID)
	}
	return p, nil
}

// Link records that a passage mentions an entity (a "contains" edge).
// Repeated links are ignored.
func (g *Graph) Link(passage, entity string) error {
	if g.entities[entity] == nil {
		return fmt.Errorf("%w: %q", ErrNoEntity, entity)
	}
	for _, e := range g.contains[passage] {
		if e == entity {
			return nil
		}
	}
	g.contains[passage] = append(g.contains[passage], entity)
	return nil
}

// Contains returns the entities a passage is linked to.
func (g *Graph) Contains(passage string) []string { return g.contains[passage] }

// ContainsCount returns the number of contains links.
func (g *Graph) ContainsCount() int {
	n := 0
	for _, es := range g.contains {
		n += len(es)
	}
	return n
}

// Incident returns the relations touching an entity, in insertion order.
func (g *Graph) Incident(entity string) []string { return g.incident[entity] }

// Relations returns every relation in insertion order.
func (g *Graph) Relations() []*Relation {
	out := make([]*Relation, 0, len(g.order))
	for _, id := range g.order {
		out = append(out, g.relations[id])
	}
	return out
}

// Entities returns every entity, ordered by id.
func (g *Graph) Entities() []*Entity {
	out := make([]*Entity, 0, len(g.entities))
	for _, e := range g.entities {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Len returns the numbers of entities and relations.
func (g *Graph) Len() (entities, relations int) { return len(g.entities), len(g.relations) }

// Remove deletes a relation (a review's deny). Entities and contains
// links stay.
func (g *Graph) Remove(id string) error {
	r, ok := g.relations[id]
	if !ok {
		return fmt.Errorf("%w: %q", ErrNoRelation, id)
	}
	delete(g.relations, id)
	g.order = without(g.order, id)
	g.incident[r.Subject] = without(g.incident[r.Subject], id)
	g.incident[r.Object] = without(g.incident[r.Object], id)
	return nil
}

func without(ids []string, id string) []string {
	out := ids[:0]
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}
