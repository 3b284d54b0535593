package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"ctxscope/engine/ingest"
	"ctxscope/engine/ingest/otlp"
	"ctxscope/engine/session"
)

// Growth is what a followed source gained, read by its follower: a
// receiver that keeps a file per conversation and reads each addition as
// it appends it (see otlp.Stream) stores the sessions without the file
// being read or hashed again, writing only the entries that changed.
type Growth struct {
	Path   string
	Format session.Format
	// Before is the size and SHA-256 (hex) of the file when its sessions
	// were last stored; After, now that it grew.
	Before, After FileState
	Sessions      []GrownSession
}

// FileState is a file's size and the hex SHA-256 of its content.
type FileState struct {
	Size int64
	Hash string
}

// GrownSession is one session a growth changed: the session as it now
// reads, and how many leading entries of its main thread are those
// stored, unchanged. Entries after them replace what is stored.
type GrownSession struct {
	Session *session.Session
	Kept    int
}

// SpoolGrowth is the growth of the OTLP spool file at path that one
// append read (see otlp.SpoolFile).
func SpoolGrowth(path string, a otlp.Appended) Growth {
	g := Growth{Path: path, Format: session.FormatOTLP, Before: FileState{a.BeforeSize, a.BeforeHash}, After: FileState{a.AfterSize, a.AfterHash}}
	for _, u := range a.Updates {
		g.Sessions = append(g.Sessions, GrownSession{Session: u.Session, Kept: u.Kept})
	}
	return g
}

// ErrStale says that what is stored of a source is not what a growth
// starts from (another process imported it, or an importer of another
// version read it): the follower imports the file instead.
var ErrStale = errors.New("store: the source is not stored as the growth assumes")

// Grow stores a growth in one transaction: the source's new size and
// hash, and for each session its entries from Kept on (a new session
// whole). A session whose stored main thread is shorter than Kept, or
// that has other threads, is stale. The work is in proportion to what
// changed, not to the session.
func (s *Store) Grow(ctx context.Context, g Growth) (*ImportResult, error) {
	res := &ImportResult{Path: g.Path, Action: ActionAppended, Bytes: g.After.Size}
	err := s.inCopyTx(ctx, func(tx *sql.Tx, copy copyRows) error {
		var st sourceState
		err := tx.QueryRow(`SELECT id, size, hash, importer FROM sources WHERE path = ?`, g.Path).Scan(&st.id, &st.size, &st.hash, &st.importer)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && (st.size != g.Before.Size || st.hash != g.Before.Hash || st.importer != ingest.Version)) {
			return ErrStale
		}
		if err != nil {
			return fmt.Errorf("read source: %w", err)
		}
		if _, err := upsertSource(tx, &st, g.Path, g.Format, g.After.Size, g.After.Hash); err != nil {
			return err
		}
		if err := recordChange(tx, ChangeSessions); err != nil {
			return err
		}
		w, err := newTxWriter(tx, copy)
		if err != nil {
			return err
		}
		defer w.close()
		for _, gs := range g.Sessions {
			c, err := growSession(w, st.id, gs)
			if err != nil {
				return fmt.Errorf("session %q: %w", gs.Session.ID, err)
			}
			c.Diagnostics = gs.Session.Diagnostics
			res.Sessions = append(res.Sessions, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// growSession writes one grown session.
func growSession(w *txWriter, srcID int64, gs GrownSession) (SessionChange, error) {
	ss := gs.Session
	var id int64
	var key string
	err := w.tx.QueryRow(`SELECT id, key FROM sessions WHERE source_id = ? AND sid = ?`, srcID, ss.ID).Scan(&id, &key)
	if errors.Is(err, sql.ErrNoRows) {
		return insertSession(w, srcID, ss)
	}
	if err != nil {
		return SessionChange{}, err
	}
	main := ss.Main()
	if len(ss.Threads) != 1 || main == nil || gs.Kept > len(main.Entries) {
		return SessionChange{}, ErrStale
	}
	var tid int64
	var threads, stored int
	err = w.tx.QueryRow(`SELECT (SELECT id FROM threads WHERE session_id = ? AND ord = 0), (SELECT count(*) FROM threads WHERE session_id = ?),
		COALESCE((SELECT max(e.ord) + 1 FROM entries e JOIN threads t ON t.id = e.thread_id WHERE t.session_id = ? AND t.ord = 0), 0)`,
		id, id, id).Scan(&tid, &threads, &stored)
	if err != nil {
		return SessionChange{}, fmt.Errorf("read the stored thread: %w", err)
	}
	if threads != 1 || stored < gs.Kept {
		return SessionChange{}, ErrStale
	}
	if stored > gs.Kept {
		if err := rewind(w.tx, id, tid, gs.Kept); err != nil {
			return SessionChange{}, err
		}
	}
	if err := w.insertEntries(tid, gs.Kept, main.Entries[gs.Kept:]); err != nil {
		return SessionChange{}, err
	}
	if err := w.flush(); err != nil {
		return SessionChange{}, err
	}
	if _, err := w.tx.Exec(`UPDATE threads SET title = ?, leaf_id = ? WHERE id = ?`, main.Title, main.LeafID, tid); err != nil {
		return SessionChange{}, fmt.Errorf("update thread: %w", err)
	}
	if err := updateSessionRow(w.tx, id, ss, false); err != nil {
		return SessionChange{}, err
	}
	added := len(main.Entries) - gs.Kept
	return SessionChange{Key: key, Action: ActionAppended, Added: added, Entries: len(main.Entries)}, nil
}

// rewind deletes the entries of a thread from position from on, the
// blobs only they used, and records the rewind for derived data (the
// search index) that holds them.
func rewind(tx *sql.Tx, sessionID, threadID int64, from int) error {
	var eids []string
	rows, err := tx.Query(`SELECT eid FROM entries WHERE thread_id = ? AND ord >= ? ORDER BY ord`, threadID, from)
	if err != nil {
		return fmt.Errorf("read the entries to rewind: %w", err)
	}
	for rows.Next() {
		var eid string
		if err := rows.Scan(&eid); err != nil {
			rows.Close()
			return err
		}
		eids = append(eids, eid)
	}
	rows.Close()
	blobs, err := blobsFrom(tx, threadID, from)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(`DELETE FROM entries WHERE thread_id = ? AND ord >= ?`, threadID, from); err != nil {
		return fmt.Errorf("rewind: %w", err)
	}
	for _, h := range blobs {
		if err := dropUnusedBlob(tx, h); err != nil {
			return err
		}
	}
	list, err := json.Marshal(eids)
	if err != nil {
		return err
	}
	_, err = tx.Exec(`INSERT INTO rewinds (session_id, revision, thread, from_ord, eids)
		VALUES (?, (SELECT revision + 1 FROM sessions WHERE id = ?), 0, ?, ?)`, sessionID, sessionID, from, string(list))
	if err != nil {
		return fmt.Errorf("record the rewind: %w", err)
	}
	return nil
}

// blobsFrom lists the blobs the blocks of a thread's entries from
// position from on use.
func blobsFrom(tx *sql.Tx, threadID int64, from int) ([]string, error) {
	rows, err := tx.Query(`SELECT b.text_blob, b.arguments_blob FROM blocks b JOIN entries e ON e.id = b.entry_id
		WHERE e.thread_id = ? AND e.ord >= ? AND (b.text_blob IS NOT NULL OR b.arguments_blob IS NOT NULL)`, threadID, from)
	if err != nil {
		return nil, fmt.Errorf("read the blobs to rewind: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var text, args sql.NullString
		if err := rows.Scan(&text, &args); err != nil {
			return nil, err
		}
		for _, h := range []sql.NullString{text, args} {
			if h.Valid {
				out = append(out, h.String)
			}
		}
	}
	return out, rows.Err()
}

// dropUnusedBlob deletes a blob no block uses any more.
func dropUnusedBlob(tx *sql.Tx, hash string) error {
	_, err := tx.Exec(`DELETE FROM blobs WHERE hash = ? AND NOT EXISTS (SELECT 1 FROM blocks WHERE text_blob = ?)
		AND NOT EXISTS (SELECT 1 FROM blocks WHERE arguments_blob = ?)`, hash, hash, hash)
	if err == nil {
		_, err = tx.Exec(`DELETE FROM blob_parts WHERE hash = ? AND NOT EXISTS (SELECT 1 FROM blobs WHERE hash = ?)`, hash, hash)
	}
	if err != nil {
		return fmt.Errorf("drop an unused blob: %w", err)
	}
	return nil
}

// schemaRewinds records the tails of threads that a growth replaced, for
// derived data that holds what was there: the entries' ids, and the
// session revision that replaced them. A session rewritten whole (a new
// generation) drops its rewinds.
const schemaRewinds = `
CREATE TABLE rewinds (
	id INTEGER PRIMARY KEY,
	session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	revision INTEGER NOT NULL,
	thread INTEGER NOT NULL,
	from_ord INTEGER NOT NULL,
	eids TEXT NOT NULL
);
CREATE INDEX rewinds_session ON rewinds(session_id, revision);
`

// Rewind is a thread's tail replaced at a revision: the entries from
// position From on of thread number Thread (whose id is ThreadID), which
// had the ids EntryIDs.
type Rewind struct {
	Thread   int
	ThreadID string
	From     int
	EntryIDs []string
}

// RewindsSince returns the rewinds of the session key after revision
// after, oldest first.
func (s *Store) RewindsSince(ctx context.Context, key string, after int) ([]Rewind, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT r.thread, t.tid, r.from_ord, r.eids FROM rewinds r JOIN sessions s ON s.id = r.session_id
		JOIN threads t ON t.session_id = r.session_id AND t.ord = r.thread
		WHERE s.key = ? AND r.revision > ? ORDER BY r.id`, key, after)
	if err != nil {
		return nil, fmt.Errorf("read rewinds: %w", err)
	}
	defer rows.Close()
	var out []Rewind
	for rows.Next() {
		var r Rewind
		var eids string
		if err := rows.Scan(&r.Thread, &r.ThreadID, &r.From, &eids); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(eids), &r.EntryIDs); err != nil {
			return nil, fmt.Errorf("read rewinds: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
