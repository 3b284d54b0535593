package store

import (
	"database/sql"
	"fmt"

	"ctxscope/engine/session"
)

// storedThread is a thread row and the ids of its entries, in order.
type storedThread struct {
	id   int64
	tid  string
	eids []string
}

// appendSession adds the entries and threads of ss that the stored
// session lacks. It reports false, writing nothing, when the stored
// session is not a prefix of ss (an entry changed or moved), in which case
// the caller rewrites the session.
func appendSession(w *txWriter, id int64, ss *session.Session) (int, bool, error) {
	stored, err := storedThreads(w.tx, id)
	if err != nil {
		return 0, false, err
	}
	if !isPrefix(stored, ss.Threads) {
		return 0, false, nil
	}
	added := 0
	for i, st := range stored {
		t := ss.Threads[i]
		if err := w.insertEntries(st.id, len(st.eids), t.Entries[len(st.eids):]); err != nil {
			return 0, false, err
		}
		added += len(t.Entries) - len(st.eids)
		_, err := w.tx.Exec(`UPDATE threads SET kind = ?, parent_tid = ?, title = ?, leaf_id = ? WHERE id = ?`,
			string(t.Kind), t.ParentID, t.Title, t.LeafID, st.id)
		if err != nil {
			return 0, false, fmt.Errorf("update thread %q: %w", t.ID, err)
		}
	}
	fresh := ss.Threads[len(stored):]
	if err := insertThreads(w, id, len(stored), fresh); err != nil {
		return 0, false, err
	}
	for _, t := range fresh {
		added += len(t.Entries)
	}
	return added, true, nil
}

// isPrefix reports whether every stored thread is the start of the thread
// at the same position in ts, entry ids in the same order.
func isPrefix(stored []storedThread, ts []*session.Thread) bool {
	if len(stored) > len(ts) {
		return false
	}
	for i, st := range stored {
		t := ts[i]
		if st.tid != t.ID || len(st.eids) > len(t.Entries) {
			return false
		}
		for k, eid := range st.eids {
			if t.Entries[k].ID != eid {
				return false
			}
		}
	}
	return true
}

func storedThreads(tx *sql.Tx, sessionID int64) ([]storedThread, error) {
	rows, err := tx.Query(`SELECT t.id, t.tid, e.eid FROM threads t LEFT JOIN entries e ON e.thread_id = t.id
		WHERE t.session_id = ? ORDER BY t.ord, e.ord`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("read stored threads: %w", err)
	}
	defer rows.Close()
	var out []storedThread
	for rows.Next() {
		var id int64
		var tid string
		var eid sql.NullString
		if err := rows.Scan(&id, &tid, &eid); err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].id != id {
			out = append(out, storedThread{id: id, tid: tid})
		}
		if eid.Valid {
			last := &out[len(out)-1]
			last.eids = append(last.eids, eid.String)
		}
	}
	return out, rows.Err()
}
