package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// MemorySet is a named group of memory layers: everything one memory
// build produced, for one session or one LoCoMo conversation.
type MemorySet struct {
	Name     string    `json:"name"`
	Kind     string    `json:"kind"`     // what it was built from, such as "session" or "locomo"
	Revision int       `json:"revision"` // bumps on every write to the set
	Created  time.Time `json:"created"`
}

// Passage is a raw passage: one dialogue turn or message, verbatim.
type Passage struct {
	ID        string `json:"id"`
	Text      string `json:"text"`
	Speaker   string `json:"speaker"`
	Timestamp string `json:"timestamp"` // as the source wrote it (LoCoMo session date_time)
	QAID      string `json:"qaId"`      // the turn's id in the source (LoCoMo dia_id)
	Session   string `json:"session"`   // the source's session within the conversation
	// Time is the passage's absolute time in RFC 3339, "" when unknown.
	Time string `json:"time,omitempty"`
}

// Cluster is an experience cluster: dialogue turns grouped by topic, with
// a short description of what they share.
type Cluster struct {
	ID         string          `json:"id"`
	CenterText string          `json:"centerText"`
	CenterIDs  []string        `json:"centerIds"` // the turns nearest the cluster's centre
	Metadata   json.RawMessage `json:"metadata,omitempty"`
}

// Experience is an experience item distilled from a cluster.
type Experience struct {
	ID          string          `json:"id"`
	Cluster     string          `json:"cluster"`
	Type        string          `json:"type"` // fact, strategy, preference or procedure
	Content     string          `json:"content"`
	SourceQAIDs []string        `json:"sourceQaIds"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
}

// EnsureMemorySet creates the memory set name unless it exists.
func (s *Store) EnsureMemorySet(ctx context.Context, name, kind string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		r, err := tx.Exec(`INSERT INTO memory_sets (name, kind, created_at) VALUES (?,?,?) ON CONFLICT DO NOTHING`, name, kind, timeText(time.Now()))
		if err != nil {
			return err
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return nil
		}
		return recordChange(tx, ChangeMemory)
	})
}

// MemorySets lists the memory sets by name.
func (s *Store) MemorySets(ctx context.Context) ([]MemorySet, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT name, kind, revision, created_at FROM memory_sets ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []MemorySet
	for rows.Next() {
		var m MemorySet
		var created string
		if err := rows.Scan(&m.Name, &m.Kind, &m.Revision, &created); err != nil {
			return nil, err
		}
		m.Created = parseTime(created)
		out = append(out, m)
	}
	return out, rows.Err()
}

// DeleteMemorySet removes a memory set and all its layers.
func (s *Store) DeleteMemorySet(ctx context.Context, name string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		r, err := tx.Exec(`DELETE FROM memory_sets WHERE name = ?`, name)
		if err != nil {
			return err
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return fmt.Errorf("memory set %q: %w", name, ErrNotFound)
		}
		return recordChange(tx, ChangeMemory)
	})
}

// inSet runs fn in a write transaction with the id of the named memory
// set, and bumps the set's revision when fn succeeds.
func (s *Store) inSet(ctx context.Context, name string, fn func(tx *sql.Tx, set int64) error) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var id int64
		err := tx.QueryRow(`SELECT id FROM memory_sets WHERE name = ?`, name).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("memory set %q: %w", name, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if err := fn(tx, id); err != nil {
			return err
		}
		if _, err = tx.Exec(`UPDATE memory_sets SET revision = revision + 1 WHERE id = ?`, id); err != nil {
			return err
		}
		return recordChange(tx, ChangeMemory)
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

// queryAll reads every row of a query in the named memory set.
func queryAll[T any](ctx context.Context, s *Store, query, set string, scan func(*sql.Rows) (T, error), args ...any) ([]T, error) {
	rows, err := s.read.QueryContext(ctx, query, append([]any{set}, args...)...)
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

// PutPassages stores passages in the set, replacing those with the same id.
func (s *Store) PutPassages(ctx context.Context, set string, ps []Passage) error {
	return s.inSet(ctx, set, func(tx *sql.Tx, id int64) error { return putPassages(tx, id, ps) })
}

func putPassages(tx *sql.Tx, id int64, ps []Passage) error {
	return execEach(tx, `INSERT INTO passages (set_id, pid, text, speaker, timestamp, qa_id, session, time) VALUES (?,?,?,?,?,?,?,?)
		ON CONFLICT (set_id, pid) DO UPDATE SET text = excluded.text, speaker = excluded.speaker, timestamp = excluded.timestamp,
		qa_id = excluded.qa_id, session = excluded.session, time = excluded.time`, ps,
		func(p Passage) []any {
			return []any{id, p.ID, p.Text, p.Speaker, p.Timestamp, p.QAID, p.Session, p.Time}
		})
}

// Passages returns the set's passages in the order they were first stored.
func (s *Store) Passages(ctx context.Context, set string) ([]Passage, error) {
	return queryAll(ctx, s, `SELECT pid, text, speaker, timestamp, qa_id, session, time FROM passages
		WHERE set_id = (SELECT id FROM memory_sets WHERE name = ?) ORDER BY id`, set,
		func(r *sql.Rows) (Passage, error) {
			var p Passage
			return p, r.Scan(&p.ID, &p.Text, &p.Speaker, &p.Timestamp, &p.QAID, &p.Session, &p.Time)
		})
}

// PutClusters stores clusters, replacing those with the same id.
func (s *Store) PutClusters(ctx context.Context, set string, cs []Cluster) error {
	return s.inSet(ctx, set, func(tx *sql.Tx, id int64) error { return putClusters(tx, id, cs) })
}

func putClusters(tx *sql.Tx, id int64, cs []Cluster) error {
	return execEach(tx, `INSERT INTO clusters (set_id, cid, center_text, center_ids, metadata) VALUES (?,?,?,?,?)
		ON CONFLICT (set_id, cid) DO UPDATE SET center_text = excluded.center_text, center_ids = excluded.center_ids, metadata = excluded.metadata`, cs,
		func(c Cluster) []any {
			return []any{id, c.ID, c.CenterText, jsonList(c.CenterIDs), jsonObject(c.Metadata)}
		})
}

// Clusters returns the set's clusters in the order they were first stored.
func (s *Store) Clusters(ctx context.Context, set string) ([]Cluster, error) {
	return queryAll(ctx, s, `SELECT cid, center_text, center_ids, metadata FROM clusters
		WHERE set_id = (SELECT id FROM memory_sets WHERE name = ?) ORDER BY id`, set,
		func(r *sql.Rows) (Cluster, error) {
			var c Cluster
			var ids, meta string
			if err := r.Scan(&c.ID, &c.CenterText, &ids, &meta); err != nil {
				return c, err
			}
			c.Metadata = json.RawMessage(meta)
			return c, json.Unmarshal([]byte(ids), &c.CenterIDs)
		})
}

// PutExperiences stores experience items, replacing those with the same id.
func (s *Store) PutExperiences(ctx context.Context, set string, xs []Experience) error {
	return s.inSet(ctx, set, func(tx *sql.Tx, id int64) error { return putExperiences(tx, id, xs) })
}

func putExperiences(tx *sql.Tx, id int64, xs []Experience) error {
	return execEach(tx, `INSERT INTO experiences (set_id, xid, cluster, type, content, source_qa_ids, metadata) VALUES (?,?,?,?,?,?,?)
		ON CONFLICT (set_id, xid) DO UPDATE SET cluster = excluded.cluster, type = excluded.type, content = excluded.content,
		source_qa_ids = excluded.source_qa_ids, metadata = excluded.metadata`, xs,
		func(x Experience) []any {
			return []any{id, x.ID, x.Cluster, x.Type, x.Content, jsonList(x.SourceQAIDs), jsonObject(x.Metadata)}
		})
}

// Experiences returns the set's experience items in the order they were
// first stored.
func (s *Store) Experiences(ctx context.Context, set string) ([]Experience, error) {
	return queryAll(ctx, s, `SELECT xid, cluster, type, content, source_qa_ids, metadata FROM experiences
		WHERE set_id = (SELECT id FROM memory_sets WHERE name = ?) ORDER BY id`, set,
		func(r *sql.Rows) (Experience, error) {
			var x Experience
			var ids, meta string
			if err := r.Scan(&x.ID, &x.Cluster, &x.Type, &x.Content, &ids, &meta); err != nil {
				return x, err
			}
			x.Metadata = json.RawMessage(meta)
			return x, json.Unmarshal([]byte(ids), &x.SourceQAIDs)
		})
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
