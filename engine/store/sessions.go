package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"time"
)

// SessionInfo summarises a stored session for lists.
type SessionInfo struct {
	Key      string    `json:"key"` // the workspace's name for the session
	ID       string    `json:"id"`  // the source's own session id
	Format   string    `json:"format"`
	Agent    string    `json:"agent"`
	Title    string    `json:"title"`
	Source   string    `json:"source"`
	CWD      string    `json:"cwd"`
	Started  time.Time `json:"started"`
	Threads  int       `json:"threads"`
	Entries  int       `json:"entries"`
	Messages int       `json:"messages"`
	// Bytes is the session's share of its source file when the file
	// holds several sessions and says how they divide it (an Inspect
	// log's samples), else the file's size.
	Bytes int64 `json:"bytes"`
	// SourceSessions is how many stored sessions came from the same
	// source file.
	SourceSessions int `json:"sourceSessions"`
	// Generation changes when the session is rewritten wholesale; Revision
	// changes whenever its content or derived data does.
	Generation int       `json:"generation"`
	Revision   int       `json:"revision"`
	Imported   time.Time `json:"imported"`
	Updated    time.Time `json:"updated"`
}

const sessionInfoQuery = `SELECT s.key, s.sid, s.format, s.agent, s.title, s.source, s.cwd, s.started,
	(SELECT count(*) FROM threads t WHERE t.session_id = s.id),
	(SELECT count(*) FROM entries e JOIN threads t ON t.id = e.thread_id WHERE t.session_id = s.id),
	(SELECT count(*) FROM entries e JOIN threads t ON t.id = e.thread_id WHERE t.session_id = s.id AND e.role IS NOT NULL),
	CASE WHEN s.size > 0 THEN s.size ELSE src.size END, (SELECT count(*) FROM sessions o WHERE o.source_id = s.source_id), s.generation, s.revision, s.imported_at, s.updated_at
	FROM sessions s JOIN sources src ON src.id = s.source_id`

// Sessions lists stored sessions, newest start first, skipping offset and
// returning at most limit (all when limit <= 0).
func (s *Store) Sessions(ctx context.Context, offset, limit int) ([]SessionInfo, error) {
	if limit <= 0 {
		limit = math.MaxInt64
	}
	rows, err := s.read.QueryContext(ctx, sessionInfoQuery+` ORDER BY s.started DESC, s.id LIMIT ? OFFSET ?`, limit, max(offset, 0))
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []SessionInfo
	for rows.Next() {
		si, err := scanSessionInfo(rows)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, si)
	}
	return out, rows.Err()
}

// Session returns the summary of one stored session, or ErrNotFound.
func (s *Store) Session(ctx context.Context, key string) (SessionInfo, error) {
	rows, err := s.read.QueryContext(ctx, sessionInfoQuery+` WHERE s.key = ?`, key)
	if err != nil {
		return SessionInfo{}, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return SessionInfo{}, err
		}
		return SessionInfo{}, fmt.Errorf("session %q: %w", key, ErrNotFound)
	}
	return scanSessionInfo(rows)
}

// Revision returns the revision of the session stored under key: it
// grows with every change to the session, so a cache of what was derived
// from the session can tell it is still current by this one cheap look,
// where [Store.Session] counts the session's entries.
func (s *Store) Revision(ctx context.Context, key string) (int, error) {
	var rev int
	err := s.read.QueryRowContext(ctx, `SELECT revision FROM sessions WHERE key = ?`, key).Scan(&rev)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("session %q: %w", key, ErrNotFound)
	}
	return rev, err
}

func scanSessionInfo(rows *sql.Rows) (SessionInfo, error) {
	var si SessionInfo
	var started, imported, updated string
	err := rows.Scan(&si.Key, &si.ID, &si.Format, &si.Agent, &si.Title, &si.Source, &si.CWD, &started,
		&si.Threads, &si.Entries, &si.Messages, &si.Bytes, &si.SourceSessions, &si.Generation, &si.Revision, &imported, &updated)
	si.Started, si.Imported, si.Updated = parseTime(started), parseTime(imported), parseTime(updated)
	return si, err
}

// DeleteSession removes a session with everything derived from it, and
// its source file's record once no session of the file remains, so that
// importing the file again brings it back.
func (s *Store) DeleteSession(ctx context.Context, key string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var id, src int64
		err := tx.QueryRow(`SELECT id, source_id FROM sessions WHERE key = ?`, key).Scan(&id, &src)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("session %q: %w", key, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`DELETE FROM sessions WHERE id = ?`, id); err != nil {
			return fmt.Errorf("delete session: %w", err)
		}
		if _, err := tx.Exec(`DELETE FROM sources WHERE id = ? AND NOT EXISTS (SELECT 1 FROM sessions WHERE source_id = ?)`, src, src); err != nil {
			return fmt.Errorf("delete source: %w", err)
		}
		if err := recordChange(tx, ChangeSessions); err != nil {
			return err
		}
		return gcBlobs(tx)
	})
}

// sessionID resolves a session key inside a transaction.
func sessionID(tx *sql.Tx, key string) (int64, error) {
	var id int64
	err := tx.QueryRow(`SELECT id FROM sessions WHERE key = ?`, key).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("session %q: %w", key, ErrNotFound)
	}
	return id, err
}

// bumpRevision marks a session's derived data as changed.
func bumpRevision(tx *sql.Tx, id int64) error {
	_, err := tx.Exec(`UPDATE sessions SET revision = revision + 1, updated_at = ? WHERE id = ?`, timeText(time.Now()), id)
	return err
}
