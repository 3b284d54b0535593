package store

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"time"

	"ctxscope/engine/ingest"
	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/session"
)

// errNotPrefix stops an append whose file no longer starts with what is
// stored (an entry changed or moved): the import is then redone as a
// rewrite.
var errNotPrefix = errors.New("store: the stored session is not a prefix of the file")

// streamWriter writes the session of a line-oriented file (pi, Claude
// Code, Codex) entry by entry as the decoder reports them, inside one
// transaction. It keeps only what later lines may refer to: each thread's
// row and count, the ids of stored entries (to check an append), and the
// rows of recently written entries (a split response may still gain a
// part). Memory stays bounded by the largest record, not the file.
type streamWriter struct {
	w        *txWriter
	srcID    int64
	id       int64  // the session row
	sid      string // its session id, when it was there before this import
	existing bool   // the session row was there before this import
	append   bool   // keep stored entries and add what follows them
	threads  map[*session.Thread]*streamThread
	stored   map[string]*storedThread // by thread id, when appending
	nextOrd  int
	recent   map[*session.Entry]entryRow // written within the last generation
	older    map[*session.Entry]entryRow // the generation before
	written  int                         // entries written
	merged   bool                        // some entry was rewritten in place
}

// streamThread is a thread row of the import.
type streamThread struct {
	id      int64
	ord     int
	entries int
	stored  []string // ids of the entries stored before this import
}

// entryRow locates an entry's row.
type entryRow struct {
	id  int64
	ord int
}

// generationSize is how many entries a generation of recently written
// entries holds. Decoders merge a line into an entry only within a few
// lines of it; older merges fall back to a query.
const generationSize = 4096

// streamSession imports the session of a line-oriented file read from r,
// of the format im detected. act is the import's action; for ActionAppended and ActionReplaced the
// source's stored session is reused. copy, when not nil, writes rows in
// batches (see txWriter). keep hands back the session decoded, whole, with
// its revision (SessionChange.Decoded).
func streamSession(tx *sql.Tx, copy copyRows, srcID int64, act Action, im ingest.Importer, r io.Reader, path string, keep bool) (SessionChange, error) {
	w, err := newTxWriter(tx, copy)
	if err != nil {
		return SessionChange{}, err
	}
	defer w.close()
	sw := &streamWriter{w: w, srcID: srcID, threads: map[*session.Thread]*streamThread{},
		recent: map[*session.Entry]entryRow{}, older: map[*session.Entry]entryRow{}}
	change := SessionChange{Action: ActionImported}
	if act == ActionAppended || act == ActionReplaced {
		if change, err = sw.reuse(act); err != nil {
			return change, err
		}
	}
	if !sw.existing {
		if err := sw.insertSessionRow(); err != nil {
			return change, err
		}
	}
	streamAs := ingest.StreamAs
	if keep {
		streamAs = ingest.StreamKeeping
	}
	ss, err := streamAs(im, r, path, sw.update)
	if err != nil {
		return change, err
	}
	if err := sw.finish(ss, &change); err != nil {
		return change, err
	}
	if keep {
		if err := tx.QueryRow(`SELECT revision FROM sessions WHERE id = ?`, sw.id).Scan(&change.Revision); err != nil {
			return change, fmt.Errorf("read revision: %w", err)
		}
		change.Decoded = ss
	}
	return change, nil
}

// reuse finds the source's stored session; when appending it reads the
// ids of the stored entries, and when rewriting it deletes them.
func (sw *streamWriter) reuse(act Action) (SessionChange, error) {
	tx := sw.w.tx
	var key string
	err := tx.QueryRow(`SELECT id, key, sid FROM sessions WHERE source_id = ? ORDER BY id LIMIT 1`, sw.srcID).Scan(&sw.id, &key, &sw.sid)
	if errors.Is(err, sql.ErrNoRows) {
		return SessionChange{Action: ActionImported}, nil
	}
	if err != nil {
		return SessionChange{}, err
	}
	sw.existing = true
	if _, err := tx.Exec(`DELETE FROM sessions WHERE source_id = ? AND id <> ?`, sw.srcID, sw.id); err != nil {
		return SessionChange{}, fmt.Errorf("drop sessions the file no longer holds: %w", err)
	}
	if act == ActionReplaced {
		if _, err := tx.Exec(`DELETE FROM threads WHERE session_id = ?`, sw.id); err != nil {
			return SessionChange{}, fmt.Errorf("delete threads: %w", err)
		}
		return SessionChange{Key: key, Action: ActionReplaced}, nil
	}
	stored, err := storedThreads(tx, sw.id)
	if err != nil {
		return SessionChange{}, err
	}
	sw.append = true
	sw.stored = map[string]*storedThread{}
	for i := range stored {
		sw.stored[stored[i].tid] = &stored[i]
	}
	sw.nextOrd = len(stored)
	return SessionChange{Key: key, Action: ActionAppended}, nil
}

// insertSessionRow writes the new session's row under a provisional key;
// finish gives it its real key once the decoder knows the session's id.
func (sw *streamWriter) insertSessionRow() error {
	now := timeText(time.Now())
	err := sw.w.tx.QueryRow(`INSERT INTO sessions (key, source_id, sid, format, version, agent, source, title, cwd, started, diagnostics, imported_at, updated_at)
		VALUES (?,?,?,'',0,'','','','','','[]',?,?) RETURNING id`, fmt.Sprintf("\x00importing-%d", sw.srcID), sw.srcID, fmt.Sprintf("\x00%d", sw.srcID), now, now).Scan(&sw.id)
	if err != nil {
		return fmt.Errorf("insert session: %w", err)
	}
	return nil
}

// update writes one change the decoder made.
func (sw *streamWriter) update(u jsonl.Update) error {
	st, err := sw.thread(u.Thread)
	if err != nil {
		return err
	}
	if u.Merged {
		return sw.rewrite(st, u.Entry)
	}
	ord := st.entries
	st.entries++
	if ord < len(st.stored) {
		if st.stored[ord] != u.Entry.ID {
			return errNotPrefix
		}
		sw.remember(u.Entry, entryRow{id: -1, ord: ord})
		return nil
	}
	if err := sw.w.insertEntry(st.id, ord, u.Entry); err != nil {
		return err
	}
	sw.written++
	sw.remember(u.Entry, entryRow{id: -1, ord: ord})
	return nil
}

// thread returns the row of t, writing it when t is new. A thread stored
// before an append is found by its id.
func (sw *streamWriter) thread(t *session.Thread) (*streamThread, error) {
	if st, ok := sw.threads[t]; ok {
		return st, nil
	}
	st := &streamThread{}
	if old, ok := sw.stored[t.ID]; ok && sw.append {
		st.id, st.stored = old.id, old.eids
		delete(sw.stored, t.ID)
	} else {
		id, err := sw.w.insertThread(sw.id, sw.nextOrd, t)
		if err != nil {
			return nil, err
		}
		st.id, st.ord = id, sw.nextOrd
		sw.nextOrd++
	}
	sw.threads[t] = st
	return st, nil
}

// remember records where an entry was written, for merges into it.
func (sw *streamWriter) remember(e *session.Entry, row entryRow) {
	if len(sw.recent) >= generationSize {
		sw.older, sw.recent = sw.recent, make(map[*session.Entry]entryRow, generationSize)
	}
	sw.recent[e] = row
}

// rewrite replaces the row of an entry that gained content.
func (sw *streamWriter) rewrite(st *streamThread, e *session.Entry) error {
	row, ok := sw.recent[e]
	if !ok {
		row, ok = sw.older[e]
	}
	tx := sw.w.tx
	if err := sw.w.flush(); err != nil { // the entry may be among the rows held
		return err
	}
	if !ok {
		if err := tx.QueryRow(`SELECT ord FROM entries WHERE thread_id = ? AND eid = ? ORDER BY ord DESC LIMIT 1`, st.id, e.ID).Scan(&row.ord); err != nil {
			return fmt.Errorf("find entry %q to update: %w", e.ID, err)
		}
	}
	if _, err := tx.Exec(`DELETE FROM entries WHERE thread_id = ? AND ord = ?`, st.id, row.ord); err != nil {
		return fmt.Errorf("update entry %q: %w", e.ID, err)
	}
	sw.merged = true
	return sw.w.insertEntry(st.id, row.ord, e)
}

// finish writes what the decoder knows at the end: the session's header
// and diagnostics, its key, the threads' metadata and order, and what
// derives from the content.
func (sw *streamWriter) finish(ss *session.Session, change *SessionChange) error {
	tx := sw.w.tx
	if err := sw.w.flush(); err != nil {
		return err
	}
	if err := sw.placeThreads(ss); err != nil {
		return err
	}
	if sw.append && len(sw.stored) > 0 {
		return errNotPrefix // a stored thread is gone from the file
	}
	for _, st := range sw.threads {
		if st.entries < len(st.stored) {
			return errNotPrefix // a stored entry is gone from the file
		}
	}
	if !sw.existing {
		key, err := allocKey(tx, ss)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE sessions SET key = ?, sid = ? WHERE id = ?`, key, ss.ID, sw.id); err != nil {
			return fmt.Errorf("name session: %w", err)
		}
		change.Key = key
	} else if sw.sid != ss.ID {
		// The file now holds another session: it gets a key of its own.
		key, err := allocKey(tx, ss)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE sessions SET key = ?, sid = ? WHERE id = ?`, key, ss.ID, sw.id); err != nil {
			return fmt.Errorf("name session: %w", err)
		}
		change.Key = key
	}
	if err := updateSessionRow(tx, sw.id, ss, change.Action == ActionReplaced); err != nil {
		return err
	}
	if change.Action == ActionAppended && sw.written == 0 && !sw.merged {
		change.Action = ActionUnchanged
	}
	if sw.merged || sw.existing {
		if err := gcBlobs(tx); err != nil {
			return err
		}
	}
	change.Added, change.Diagnostics = sw.written, ss.Diagnostics
	for _, st := range sw.threads {
		change.Entries += st.entries
	}
	return nil
}

// placeThreads writes each thread's final metadata and its position in
// the session's order, which may differ from the order the threads first
// appeared in.
func (sw *streamWriter) placeThreads(ss *session.Session) error {
	tx := sw.w.tx
	for i, t := range ss.Threads {
		st, err := sw.thread(t) // a thread without entries has no row yet
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE threads SET ord = ?, kind = ?, parent_tid = ?, title = ?, leaf_id = ? WHERE id = ?`,
			-1-i, string(t.Kind), t.ParentID, t.Title, t.LeafID, st.id); err != nil {
			return fmt.Errorf("update thread %q: %w", t.ID, err)
		}
	}
	if _, err := tx.Exec(`UPDATE threads SET ord = -1 - ord WHERE session_id = ?`, sw.id); err != nil {
		return fmt.Errorf("order threads: %w", err)
	}
	return nil
}
