package memstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	wstore "ctxscope/engine/store"
)

// Tables reads and writes the memory tables of a workspace, row by row:
// memory sets and, in each, its passages, entities, relations, contains
// links, clusters and experience items. Every write runs in the
// workspace's write transaction and records a memory change in its change
// feed; a write to a set bumps the set's revision. It is safe for
// concurrent use.
type Tables struct {
	ws *wstore.Store
	q  querier // where reads go: the workspace's readers, or one read transaction
}

// querier is what reads need of a connection pool or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// TablesOf returns the memory tables of an open workspace.
func TablesOf(ws *wstore.Store) Tables { return Tables{ws: ws, q: ws.Reader()} }

// snapshot runs fn with tables whose reads all see the same committed
// state (see wstore.Store.Snapshot).
func (t Tables) snapshot(ctx context.Context, fn func(Tables) error) error {
	tx, err := t.ws.Snapshot(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback() // a read-only transaction has nothing to commit
	return fn(Tables{ws: t.ws, q: tx})
}

// notFound is the error for an unknown memory set.
func notFound(set string) error { return fmt.Errorf("%w: %s", ErrNotFound, set) }

// setID selects the id of the memory set named by the next ? placeholder.
const setID = `(SELECT id FROM memory_sets WHERE name = ?)`

// Ensure creates the memory set name unless it exists.
func (t Tables) Ensure(ctx context.Context, name, kind string) error {
	return t.ws.Write(ctx, wstore.ChangeMemory, func(tx *sql.Tx) (bool, error) {
		r, err := tx.Exec(`INSERT INTO memory_sets (name, kind, created_at) VALUES (?,?,?) ON CONFLICT DO NOTHING`, name, kind, now())
		if err != nil {
			return false, err
		}
		n, err := r.RowsAffected()
		return n > 0, err
	})
}

// Sets lists the memory sets by name.
func (t Tables) Sets(ctx context.Context) ([]MemorySet, error) {
	return queryAll(ctx, t, `SELECT name, kind, revision, created_at FROM memory_sets ORDER BY name`, func(r *sql.Rows) (MemorySet, error) {
		var m MemorySet
		var created string
		err := r.Scan(&m.Name, &m.Kind, &m.Revision, &created)
		m.Created = parseTime(created)
		return m, err
	})
}

// Revision returns the revision of a memory set, or ErrNotFound.
func (t Tables) Revision(ctx context.Context, name string) (int, error) {
	var rev int
	err := t.q.QueryRowContext(ctx, `SELECT revision FROM memory_sets WHERE name = ?`, name).Scan(&rev)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, notFound(name)
	}
	return rev, err
}

// Delete removes a memory set and all its layers.
func (t Tables) Delete(ctx context.Context, name string) error {
	return t.ws.Write(ctx, wstore.ChangeMemory, func(tx *sql.Tx) (bool, error) {
		r, err := tx.Exec(`DELETE FROM memory_sets WHERE name = ?`, name)
		if err != nil {
			return false, err
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return false, notFound(name)
		}
		return true, nil
	})
}

// Replace writes a whole memory set in one transaction: the set is
// created when missing (with kind), everything it held is removed, d is
// stored, and the revision bumps once. Readers see the old set or the new
// one, never a mix.
func (t Tables) Replace(ctx context.Context, name, kind string, d MemoryData) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("memstore: empty memory set name")
	}
	return t.ws.Write(ctx, wstore.ChangeMemory, func(tx *sql.Tx) (bool, error) {
		if _, err := tx.Exec(`INSERT INTO memory_sets (name, kind, created_at) VALUES (?,?,?)
			ON CONFLICT (name) DO UPDATE SET kind = excluded.kind`, name, kind, now()); err != nil {
			return false, err
		}
		var id int64
		if err := tx.QueryRow(`SELECT id FROM memory_sets WHERE name = ?`, name).Scan(&id); err != nil {
			return false, err
		}
		for _, table := range []string{"entity_names", "contains_links", "relations", "entities", "experiences", "clusters", "passages"} {
			if _, err := tx.Exec(`DELETE FROM `+table+` WHERE set_id = ?`, id); err != nil {
				return false, fmt.Errorf("clear %s: %w", table, err)
			}
		}
		if _, err := tx.Exec(`UPDATE memory_sets SET metadata = ?, revision = revision + 1 WHERE id = ?`, jsonObject(d.Metadata), id); err != nil {
			return false, err
		}
		return true, putMemoryData(tx, id, d)
	})
}

func putMemoryData(tx *sql.Tx, id int64, d MemoryData) error {
	steps := []struct {
		what string
		put  func() error
	}{
		{"passages", func() error { return putPassages(tx, id, d.Passages) }},
		{"entities", func() error { return putEntities(tx, id, d.Entities) }},
		{"relations", func() error { return putRelations(tx, id, d.Relations) }},
		{"contains links", func() error { return putContains(tx, id, d.Contains) }},
		{"clusters", func() error { return putClusters(tx, id, d.Clusters) }},
		{"experiences", func() error { return putExperiences(tx, id, d.Experiences) }},
	}
	for _, st := range steps {
		if err := st.put(); err != nil {
			return fmt.Errorf("store %s: %w", st.what, err)
		}
	}
	return nil
}

// Read reads a whole memory set, each layer in the order it was stored,
// all as one committed state: a write to the set meanwhile is either all
// in it or not at all. It returns ErrNotFound for an unknown set.
func (t Tables) Read(ctx context.Context, name string) (set MemorySet, d MemoryData, err error) {
	err = t.snapshot(ctx, func(t Tables) error {
		set, d, err = t.read(ctx, name)
		return err
	})
	return set, d, err
}

func (t Tables) read(ctx context.Context, name string) (MemorySet, MemoryData, error) {
	var set MemorySet
	var d MemoryData
	var created, meta string
	err := t.q.QueryRowContext(ctx, `SELECT name, kind, revision, created_at, metadata FROM memory_sets WHERE name = ?`, name).
		Scan(&set.Name, &set.Kind, &set.Revision, &created, &meta)
	if errors.Is(err, sql.ErrNoRows) {
		return set, d, notFound(name)
	}
	if err != nil {
		return set, d, err
	}
	set.Created, d.Metadata = parseTime(created), json.RawMessage(meta)
	if d.Passages, err = t.Passages(ctx, name); err != nil {
		return set, d, err
	}
	if d.Entities, err = t.entities(ctx, `e.set_id = `+setID, name); err != nil {
		return set, d, err
	}
	if d.Relations, err = t.Relations(ctx, name, ""); err != nil {
		return set, d, err
	}
	if d.Contains, err = t.ContainedIn(ctx, name, ""); err != nil {
		return set, d, err
	}
	if d.Clusters, err = t.Clusters(ctx, name); err != nil {
		return set, d, err
	}
	d.Experiences, err = t.Experiences(ctx, name)
	return set, d, err
}

// inSet runs fn in a write transaction with the id of the named memory
// set, and bumps the set's revision when fn succeeds.
func (t Tables) inSet(ctx context.Context, name string, fn func(tx *sql.Tx, set int64) error) error {
	return t.ws.Write(ctx, wstore.ChangeMemory, func(tx *sql.Tx) (bool, error) {
		var id int64
		err := tx.QueryRow(`SELECT id FROM memory_sets WHERE name = ?`, name).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return false, notFound(name)
		}
		if err != nil {
			return false, err
		}
		if err := fn(tx, id); err != nil {
			return false, err
		}
		_, err = tx.Exec(`UPDATE memory_sets SET revision = revision + 1 WHERE id = ?`, id)
		return err == nil, err
	})
}

// execEach runs one prepared statement per item.
func execEach[T any](tx *sql.Tx, query string, items []T, args func(T) []any) error {
	st, err := tx.Prepare(query)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, it := range items {
		if _, err := st.Exec(args(it)...); err != nil {
			return err
		}
	}
	return nil
}

// queryAll reads every row of a query.
func queryAll[T any](ctx context.Context, t Tables, query string, scan func(*sql.Rows) (T, error), args ...any) ([]T, error) {
	rows, err := t.q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// now is the time a set is created at, as the tables write times: RFC
// 3339 in UTC.
func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

// parseTime reads a time the tables wrote; the zero time when it is not
// one.
func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func jsonList(ss []string) string {
	if ss == nil {
		ss = []string{}
	}
	b, _ := json.Marshal(ss) // a string slice always encodes
	return string(b)
}

// jsonObject stores metadata as given, "{}" when absent.
func jsonObject(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	return string(raw)
}
