package store

import (
	"context"
	"database/sql"
	"fmt"

	"ctxscope/engine/session"
)

// EntryPage is a run of consecutive entries of one thread of a session.
type EntryPage struct {
	Thread   int    // the thread's position in the session
	ThreadID string // its id
	From     int    // the position of the first entry in the thread
	Entries  []*session.Entry
}

// EachEntryPage reads the entries of the session stored under key, thread
// by thread in order, in pages of at most size entries with their blocks
// (but not the raw records of meta entries: Entry.Raw is nil), and passes
// each page to fn. Thread t starts at position from[t] (0 for
// threads beyond from). Each page is read in a transaction of its own, so
// that a reader of a large session holds neither the whole session in
// memory nor a snapshot that keeps the write-ahead log from being
// checkpointed. An error from fn stops the reading and is returned.
func (s *Store) EachEntryPage(ctx context.Context, key string, from []int, size int, fn func(EntryPage) error) error {
	threads, err := s.threadRows(ctx, key)
	if err != nil {
		return err
	}
	for t, th := range threads {
		start := 0
		if t < len(from) {
			start = from[t]
		}
		for {
			page, err := s.entryPage(ctx, th.id, start, size)
			if err != nil {
				return fmt.Errorf("read entries of %s: %w", key, err)
			}
			if len(page) == 0 {
				break
			}
			if err := fn(EntryPage{Thread: t, ThreadID: th.tid, From: start, Entries: page}); err != nil {
				return err
			}
			start += len(page)
			if len(page) < size {
				break
			}
		}
	}
	return nil
}

// threadRows returns the row ids and ids of a session's threads in order.
func (s *Store) threadRows(ctx context.Context, key string) ([]storedThread, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT t.id, t.tid FROM threads t JOIN sessions s ON s.id = t.session_id
		WHERE s.key = ? ORDER BY t.ord`, key)
	if err != nil {
		return nil, fmt.Errorf("read threads of %s: %w", key, err)
	}
	defer rows.Close()
	var out []storedThread
	for rows.Next() {
		var t storedThread
		if err := rows.Scan(&t.id, &t.tid); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// entryPage reads up to size entries of a thread from position start on.
func (s *Store) entryPage(ctx context.Context, threadID int64, start, size int) ([]*session.Entry, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.Query(`SELECT e.id, 0, e.eid, e.parent_eid, e.line, e.time, e.kind, e.type, e.value, e.target, NULL,
		e.summary, e.first_kept, e.tokens_before, e.role, e.origin, e.msg_id, e.provider, e.model, e.stop_reason, e.error,
		e.msg_time, e.excluded, e.blocks_empty, e.usage
		FROM entries e WHERE e.thread_id = ? AND e.ord >= ? ORDER BY e.ord LIMIT ?`, threadID, start, size)
	if err != nil {
		return nil, err
	}
	var page []*session.Entry
	byID := map[int64]*session.Entry{}
	for rows.Next() {
		id, _, e, err := scanEntry(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		page = append(page, e)
		byID[id] = e
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(page) == 0 {
		return page, err
	}
	err = fillBlocks(tx, byID, `WHERE e.thread_id = ? AND e.ord >= ? AND e.ord < ?`, threadID, start, start+len(page))
	return page, err
}
