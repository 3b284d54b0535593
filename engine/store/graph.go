package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
)

// Entity is a node of the graph memory. Its name and aliases resolve to
// it case-insensitively; when two entities claim the same name, the first
// stored keeps it, as in MemWeaver's name index.
type Entity struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Source   string          `json:"source"` // "dialog" for extraction, "session_review" for review
	Aliases  []string        `json:"aliases"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// Relation is an edge of the graph memory: a semantic triple between two
// entities, with the time and condition under which it holds and its
// provenance, or a structural edge such as "about".
type Relation struct {
	ID        string          `json:"id"`
	Source    string          `json:"source"` // entity id
	Target    string          `json:"target"` // entity id
	Type      string          `json:"type"`   // the predicate
	Time      string          `json:"time"`   // normalized absolute time, "" when none
	Condition string          `json:"condition"`
	Session   string          `json:"session"`   // the conversation session it was extracted from
	QAID      string          `json:"qaId"`      // the turn it was extracted from, "" for session review
	PassageID string          `json:"passageId"` // the passage node it was extracted from
	Origin    string          `json:"origin"`    // "dialog" or "session_review"
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// Contains links a passage to an entity that appears in a relation
// extracted from it.
type Contains struct {
	Passage   string `json:"passage"`
	Entity    string `json:"entity"`
	Timestamp string `json:"timestamp"`
	// Position orders a passage's links: the order its entities were
	// linked in.
	Position int `json:"position,omitempty"`
}

// PutEntities stores entities, replacing those with the same id, and
// registers their names and aliases where no other entity holds them.
func (s *Store) PutEntities(ctx context.Context, set string, es []Entity) error {
	return s.inSet(ctx, set, func(tx *sql.Tx, id int64) error { return putEntities(tx, id, es) })
}

func putEntities(tx *sql.Tx, id int64, es []Entity) error {
	ins, err := tx.Prepare(`INSERT INTO entities (set_id, eid, name, source, metadata) VALUES (?,?,?,?,?)
		ON CONFLICT (set_id, eid) DO UPDATE SET name = excluded.name, source = excluded.source, metadata = excluded.metadata RETURNING id`)
	if err != nil {
		return err
	}
	defer ins.Close()
	name, err := tx.Prepare(`INSERT INTO entity_names (set_id, name, entity_id, alias) VALUES (?,?,?,?) ON CONFLICT DO NOTHING`)
	if err != nil {
		return err
	}
	defer name.Close()
	for _, e := range es {
		var row int64
		if err := ins.QueryRow(id, e.ID, e.Name, e.Source, jsonObject(e.Metadata)).Scan(&row); err != nil {
			return fmt.Errorf("entity %q: %w", e.ID, err)
		}
		for i, n := range append([]string{e.Name}, e.Aliases...) {
			if _, err := name.Exec(id, strings.ToLower(n), row, i > 0); err != nil {
				return fmt.Errorf("entity %q name %q: %w", e.ID, n, err)
			}
		}
	}
	return nil
}

// entityQuery selects entities with their aliases, for scanEntity.
func (s *Store) entityQuery() string {
	return `SELECT e.eid, e.name, e.source, e.metadata, ` + s.d.aliasesJSON() + ` FROM entities e`
}

func scanEntity(r *sql.Rows) (Entity, error) {
	var e Entity
	var meta, aliases string
	if err := r.Scan(&e.ID, &e.Name, &e.Source, &meta, &aliases); err != nil {
		return e, err
	}
	e.Metadata = json.RawMessage(meta)
	return e, json.Unmarshal([]byte(aliases), &e.Aliases)
}

// Entities returns the set's entities in the order they were first
// stored. Aliases come back lower-cased, as the name index keeps them.
func (s *Store) Entities(ctx context.Context, set string) ([]Entity, error) {
	return queryAll(ctx, s, s.entityQuery()+` WHERE e.set_id = (SELECT id FROM memory_sets WHERE name = ?) ORDER BY e.id`, set, scanEntity)
}

// ResolveEntity finds the entity that holds name (or an alias equal to
// it, ignoring case), or returns ErrNotFound.
func (s *Store) ResolveEntity(ctx context.Context, set, name string) (Entity, error) {
	es, err := queryAll(ctx, s, s.entityQuery()+` WHERE e.id = (SELECT entity_id FROM entity_names
		WHERE set_id = (SELECT id FROM memory_sets WHERE name = ?) AND name = ?)`, set, scanEntity, strings.ToLower(name))
	if err != nil {
		return Entity{}, err
	}
	if len(es) == 0 {
		return Entity{}, fmt.Errorf("entity %q in %q: %w", name, set, ErrNotFound)
	}
	return es[0], nil
}

// PutRelations stores relations, replacing those with the same id.
func (s *Store) PutRelations(ctx context.Context, set string, rs []Relation) error {
	return s.inSet(ctx, set, func(tx *sql.Tx, id int64) error { return putRelations(tx, id, rs) })
}

func putRelations(tx *sql.Tx, id int64, rs []Relation) error {
	return execEach(tx, `INSERT INTO relations (set_id, rid, source, target, type, time, condition, session, qa_id, passage_id, origin, metadata)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (set_id, rid) DO UPDATE SET source = excluded.source, target = excluded.target,
		type = excluded.type, time = excluded.time, condition = excluded.condition, session = excluded.session, qa_id = excluded.qa_id,
		passage_id = excluded.passage_id, origin = excluded.origin, metadata = excluded.metadata`, rs,
		func(r Relation) []any {
			return []any{id, r.ID, r.Source, r.Target, r.Type, r.Time, r.Condition, r.Session, r.QAID, r.PassageID, r.Origin, jsonObject(r.Metadata)}
		})
}

// Relations returns the set's relations in the order they were first
// stored; with a non-empty entity, only those that start or end at it.
func (s *Store) Relations(ctx context.Context, set, entity string) ([]Relation, error) {
	return queryAll(ctx, s, `SELECT rid, source, target, type, time, condition, session, qa_id, passage_id, origin, metadata FROM relations
		WHERE set_id = (SELECT id FROM memory_sets WHERE name = ?) AND (? = '' OR source = ? OR target = ?) ORDER BY id`, set,
		func(r *sql.Rows) (Relation, error) {
			var x Relation
			var meta string
			err := r.Scan(&x.ID, &x.Source, &x.Target, &x.Type, &x.Time, &x.Condition, &x.Session, &x.QAID, &x.PassageID, &x.Origin, &meta)
			x.Metadata = json.RawMessage(meta)
			return x, err
		}, entity, entity, entity)
}

// PutContains stores passage-contains-entity links; existing links keep
// their first timestamp and position.
func (s *Store) PutContains(ctx context.Context, set string, cs []Contains) error {
	return s.inSet(ctx, set, func(tx *sql.Tx, id int64) error { return putContains(tx, id, cs) })
}

func putContains(tx *sql.Tx, id int64, cs []Contains) error {
	return execEach(tx, `INSERT INTO contains_links (set_id, passage, entity, timestamp, position) VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING`, cs,
		func(c Contains) []any { return []any{id, c.Passage, c.Entity, c.Timestamp, c.Position} })
}

// ContainedIn returns the links of the set by passage, each passage's in
// position order, only those of one passage when passage is not empty.
func (s *Store) ContainedIn(ctx context.Context, set, passage string) ([]Contains, error) {
	return queryAll(ctx, s, `SELECT passage, entity, timestamp, position FROM contains_links
		WHERE set_id = (SELECT id FROM memory_sets WHERE name = ?) AND (? = '' OR passage = ?) ORDER BY passage, position, entity`, set,
		func(r *sql.Rows) (Contains, error) {
			var c Contains
			return c, r.Scan(&c.Passage, &c.Entity, &c.Timestamp, &c.Position)
		}, passage, passage)
}
