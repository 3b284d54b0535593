package memstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
)

// The graph layer's rows: entities with the name index that resolves
// their names and aliases, relations, and the links from passages to the
// entities extracted from them.

// PutEntities stores entities, replacing those with the same id, and
// registers their names and aliases where no other entity holds them.
func (t Tables) PutEntities(ctx context.Context, set string, es []Entity) error {
	return t.inSet(ctx, set, func(tx *sql.Tx, id int64) error { return putEntities(tx, id, es) })
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

// Entities returns the set's entities in the order they were first
// stored. Aliases come back lower-cased and sorted, as the name index
// keeps them, and only those the entity holds in it.
func (t Tables) Entities(ctx context.Context, set string) (es []Entity, err error) {
	err = t.snapshot(ctx, func(t Tables) error {
		es, err = t.entities(ctx, `e.set_id = `+setID, set)
		return err
	})
	return es, err
}

// ResolveEntity finds the entity that holds name (or an alias equal to
// it, ignoring case), or returns ErrNoEntity.
func (t Tables) ResolveEntity(ctx context.Context, set, name string) (Entity, error) {
	var es []Entity
	err := t.snapshot(ctx, func(t Tables) (err error) {
		es, err = t.entities(ctx, `e.id = (SELECT entity_id FROM entity_names WHERE set_id = `+setID+` AND name = ?)`, set, strings.ToLower(name))
		return err
	})
	if err != nil {
		return Entity{}, err
	}
	if len(es) == 0 {
		return Entity{}, fmt.Errorf("%w named %q in %s", ErrNoEntity, name, set)
	}
	return es[0], nil
}

// entities reads the entities that where selects, with their aliases: the
// entities first, then the aliases of the same entities, joined here
// rather than aggregated in SQL, which each engine spells its own way.
// The two reads must see the same state: t reads in a snapshot.
func (t Tables) entities(ctx context.Context, where string, args ...any) ([]Entity, error) {
	var rows []int64
	es, err := queryAll(ctx, t, `SELECT e.id, e.eid, e.name, e.source, e.metadata FROM entities e WHERE `+where+` ORDER BY e.id`,
		func(r *sql.Rows) (Entity, error) {
			var e Entity
			var row int64
			var meta string
			err := r.Scan(&row, &e.ID, &e.Name, &e.Source, &meta)
			rows = append(rows, row)
			e.Metadata, e.Aliases = json.RawMessage(meta), []string{}
			return e, err
		}, args...)
	if err != nil || len(es) == 0 {
		return es, err
	}
	type alias struct {
		entity int64
		name   string
	}
	as, err := queryAll(ctx, t, `SELECT n.entity_id, n.name FROM entity_names n JOIN entities e ON e.id = n.entity_id
		WHERE n.alias <> 0 AND `+where+` ORDER BY n.entity_id, n.name`,
		func(r *sql.Rows) (alias, error) {
			var a alias
			return a, r.Scan(&a.entity, &a.name)
		}, args...)
	if err != nil {
		return nil, err
	}
	at := make(map[int64]int, len(rows))
	for i, row := range rows {
		at[row] = i
	}
	for _, a := range as {
		if i, ok := at[a.entity]; ok {
			es[i].Aliases = append(es[i].Aliases, a.name)
		}
	}
	return es, nil
}

// PutRelations stores relations, replacing those with the same id.
func (t Tables) PutRelations(ctx context.Context, set string, rs []Relation) error {
	return t.inSet(ctx, set, func(tx *sql.Tx, id int64) error { return putRelations(tx, id, rs) })
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
func (t Tables) Relations(ctx context.Context, set, entity string) ([]Relation, error) {
	return queryAll(ctx, t, `SELECT rid, source, target, type, time, condition, session, qa_id, passage_id, origin, metadata FROM relations
		WHERE set_id = `+setID+` AND (? = '' OR source = ? OR target = ?) ORDER BY id`,
		func(r *sql.Rows) (Relation, error) {
			var x Relation
			var meta string
			err := r.Scan(&x.ID, &x.Source, &x.Target, &x.Type, &x.Time, &x.Condition, &x.Session, &x.QAID, &x.PassageID, &x.Origin, &meta)
			x.Metadata = json.RawMessage(meta)
			return x, err
		}, set, entity, entity, entity)
}

// PutContains stores passage-contains-entity links; existing links keep
// their first timestamp and position.
func (t Tables) PutContains(ctx context.Context, set string, cs []Contains) error {
	return t.inSet(ctx, set, func(tx *sql.Tx, id int64) error { return putContains(tx, id, cs) })
}

func putContains(tx *sql.Tx, id int64, cs []Contains) error {
	return execEach(tx, `INSERT INTO contains_links (set_id, passage, entity, timestamp, position) VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING`, cs,
		func(c Contains) []any { return []any{id, c.Passage, c.Entity, c.Timestamp, c.Position} })
}

// ContainedIn returns the links of the set by passage, each passage's in
// position order, only those of one passage when passage is not empty.
func (t Tables) ContainedIn(ctx context.Context, set, passage string) ([]Contains, error) {
	return queryAll(ctx, t, `SELECT passage, entity, timestamp, position FROM contains_links
		WHERE set_id = `+setID+` AND (? = '' OR passage = ?) ORDER BY passage, position, entity`,
		func(r *sql.Rows) (Contains, error) {
			var c Contains
			return c, r.Scan(&c.Passage, &c.Entity, &c.Timestamp, &c.Position)
		}, set, passage, passage)
}
