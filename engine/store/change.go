package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// ChangeKind names what a committed write changed, as the change feed
// records it.
type ChangeKind string

const (
	// ChangeSessions: a session was imported, grew, was rewritten or
	// deleted.
	ChangeSessions ChangeKind = "sessions"
	// ChangeMemory: a memory set was written or deleted.
	ChangeMemory ChangeKind = "memory"
	// ChangeAnnotations: an annotation was made or removed.
	ChangeAnnotations ChangeKind = "annotations"
)

// Change is one committed write in the change feed. Ids grow with every
// write, across every process that shares the workspace, so a reader
// that remembers the last id it saw asks for what came after.
type Change struct {
	ID   int64      `json:"id"`
	Kind ChangeKind `json:"kind"`
	At   time.Time  `json:"at"`
}

// keepChanges is how many changes the feed keeps; a reader that fell
// further behind sees a gap (see [Store.ChangesSince]) and reads the
// workspace afresh.
const keepChanges = 1000

// schemaChanges is the change feed: one row per committed write that
// another process sharing the workspace (a second server on the same
// PostgreSQL database, a CLI import beside the app) must hear of to keep
// its search index and its views in step.
const schemaChanges = `
CREATE TABLE changes (
	id INTEGER PRIMARY KEY,
	kind TEXT NOT NULL,
	at TEXT NOT NULL
);
`

// recordChange adds a change to the feed inside the write transaction
// that makes it, so that the change is seen exactly when the write is,
// and drops the changes older than the last keepChanges.
func recordChange(tx *sql.Tx, kind ChangeKind) error {
	var id int64
	if err := tx.QueryRow(`INSERT INTO changes (kind, at) VALUES (?, ?) RETURNING id`, string(kind), timeText(time.Now())).Scan(&id); err != nil {
		return fmt.Errorf("record the change: %w", err)
	}
	if id%100 == 0 {
		if _, err := tx.Exec(`DELETE FROM changes WHERE id <= ?`, id-keepChanges); err != nil {
			return fmt.Errorf("trim the change feed: %w", err)
		}
	}
	return nil
}

// ChangesSince returns the changes after id, oldest first. Complete is
// false when the feed no longer holds every change since id (it keeps
// the last keepChanges): the reader then treats everything as changed.
func (s *Store) ChangesSince(ctx context.Context, id int64) (changes []Change, complete bool, err error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, kind, at FROM changes WHERE id > ? ORDER BY id`, id)
	if err != nil {
		return nil, false, fmt.Errorf("read the change feed: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var c Change
		var kind, at string
		if err := rows.Scan(&c.ID, &kind, &at); err != nil {
			return nil, false, err
		}
		c.Kind, c.At = ChangeKind(kind), parseTime(at)
		changes = append(changes, c)
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	complete = len(changes) == 0 || changes[0].ID == id+1 || id == 0
	if !complete {
		// Ids can skip (a rolled-back insert in PostgreSQL uses one up):
		// the feed is complete when it holds a change at or before id.
		var older int
		err = s.read.QueryRowContext(ctx, `SELECT count(*) FROM changes WHERE id <= ?`, id).Scan(&older)
		complete = older > 0
	}
	return changes, complete, err
}

// LastChange returns the id of the latest change, 0 when there was none.
func (s *Store) LastChange(ctx context.Context) (int64, error) {
	var id int64
	err := s.read.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM changes`).Scan(&id)
	return id, err
}
