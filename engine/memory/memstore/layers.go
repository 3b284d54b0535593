package memstore

import (
	"context"
	"database/sql"
	"encoding/json"
)

// The passage and experience layers' rows: passages, clusters and
// experience items, each kept in the order it was first stored.

// PutPassages stores passages in the set, replacing those with the same id.
func (t Tables) PutPassages(ctx context.Context, set string, ps []Passage) error {
	return t.inSet(ctx, set, func(tx *sql.Tx, id int64) error { return putPassages(tx, id, ps) })
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
func (t Tables) Passages(ctx context.Context, set string) ([]Passage, error) {
	return queryAll(ctx, t, `SELECT pid, text, speaker, timestamp, qa_id, session, time FROM passages
		WHERE set_id = `+setID+` ORDER BY id`,
		func(r *sql.Rows) (Passage, error) {
			var p Passage
			return p, r.Scan(&p.ID, &p.Text, &p.Speaker, &p.Timestamp, &p.QAID, &p.Session, &p.Time)
		}, set)
}

// PutClusters stores clusters, replacing those with the same id.
func (t Tables) PutClusters(ctx context.Context, set string, cs []Cluster) error {
	return t.inSet(ctx, set, func(tx *sql.Tx, id int64) error { return putClusters(tx, id, cs) })
}

func putClusters(tx *sql.Tx, id int64, cs []Cluster) error {
	return execEach(tx, `INSERT INTO clusters (set_id, cid, center_text, center_ids, metadata) VALUES (?,?,?,?,?)
		ON CONFLICT (set_id, cid) DO UPDATE SET center_text = excluded.center_text, center_ids = excluded.center_ids, metadata = excluded.metadata`, cs,
		func(c Cluster) []any {
			return []any{id, c.ID, c.CenterText, jsonList(c.CenterIDs), jsonObject(c.Metadata)}
		})
}

// Clusters returns the set's clusters in the order they were first stored.
func (t Tables) Clusters(ctx context.Context, set string) ([]Cluster, error) {
	return queryAll(ctx, t, `SELECT cid, center_text, center_ids, metadata FROM clusters
		WHERE set_id = `+setID+` ORDER BY id`,
		func(r *sql.Rows) (Cluster, error) {
			var c Cluster
			var ids, meta string
			if err := r.Scan(&c.ID, &c.CenterText, &ids, &meta); err != nil {
				return c, err
			}
			c.Metadata = json.RawMessage(meta)
			return c, json.Unmarshal([]byte(ids), &c.CenterIDs)
		}, set)
}

// PutExperiences stores experience items, replacing those with the same id.
func (t Tables) PutExperiences(ctx context.Context, set string, xs []Experience) error {
	return t.inSet(ctx, set, func(tx *sql.Tx, id int64) error { return putExperiences(tx, id, xs) })
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
func (t Tables) Experiences(ctx context.Context, set string) ([]Experience, error) {
	return queryAll(ctx, t, `SELECT xid, cluster, type, content, source_qa_ids, metadata FROM experiences
		WHERE set_id = `+setID+` ORDER BY id`,
		func(r *sql.Rows) (Experience, error) {
			var x Experience
			var ids, meta string
			if err := r.Scan(&x.ID, &x.Cluster, &x.Type, &x.Content, &ids, &meta); err != nil {
				return x, err
			}
			x.Metadata = json.RawMessage(meta)
			return x, json.Unmarshal([]byte(ids), &x.SourceQAIDs)
		}, set)
}
