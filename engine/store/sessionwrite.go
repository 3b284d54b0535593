package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"ctxscope/engine/session"
)

// storedSession is a session row as an import finds it.
type storedSession struct {
	id  int64
	key string
}

func writeSession(w *txWriter, srcID int64, act Action, ss *session.Session) (SessionChange, error) {
	var st storedSession
	err := w.tx.QueryRow(`SELECT id, key FROM sessions WHERE source_id = ? AND sid = ?`, srcID, ss.ID).Scan(&st.id, &st.key)
	if errors.Is(err, sql.ErrNoRows) {
		return insertSession(w, srcID, ss)
	}
	if err != nil {
		return SessionChange{}, err
	}
	c := SessionChange{Key: st.key, Action: ActionReplaced}
	if act == ActionAppended {
		added, ok, err := appendSession(w, st.id, ss)
		if err != nil {
			return c, err
		}
		if ok {
			c.Action, c.Added = ActionAppended, added
		}
	}
	if c.Action == ActionReplaced {
		if c.Added, err = rewriteSession(w, st.id, ss); err != nil {
			return c, err
		}
	}
	if err := w.flush(); err != nil {
		return c, err
	}
	if err := updateSessionRow(w.tx, st.id, ss, c.Action == ActionReplaced); err != nil {
		return c, err
	}
	c.Entries = countEntries(ss)
	return c, nil
}

func insertSession(w *txWriter, srcID int64, ss *session.Session) (SessionChange, error) {
	key, err := allocKey(w.tx, ss)
	if err != nil {
		return SessionChange{}, err
	}
	diags, err := diagnosticsText(ss.Diagnostics)
	if err != nil {
		return SessionChange{}, err
	}
	now := timeText(time.Now())
	var id int64
	err = w.tx.QueryRow(`INSERT INTO sessions (key, source_id, sid, format, version, agent, source, title, cwd, started, diagnostics, imported_at, updated_at, size, recorded)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`, key, srcID, ss.ID, string(ss.Format), ss.Version, ss.Agent, ss.Source, ss.Title, ss.CWD,
		timeText(ss.Started), diags, now, now, ss.Size, recordedText(ss.Recorded)).Scan(&id)
	if err != nil {
		return SessionChange{}, fmt.Errorf("insert session: %w", err)
	}
	if err := insertThreads(w, id, 0, ss.Threads); err != nil {
		return SessionChange{}, err
	}
	if err := w.flush(); err != nil {
		return SessionChange{}, err
	}
	n := countEntries(ss)
	return SessionChange{Key: key, Action: ActionImported, Added: n, Entries: n}, nil
}

func insertThreads(w *txWriter, sessionID int64, from int, ts []*session.Thread) error {
	for i, t := range ts {
		tid, err := w.insertThread(sessionID, from+i, t)
		if err != nil {
			return err
		}
		if err := w.insertEntries(tid, 0, t.Entries); err != nil {
			return err
		}
	}
	return nil
}

// rewriteSession replaces a session's threads wholesale and bumps its
// generation, which tells derived data (the search index) to start over.
func rewriteSession(w *txWriter, id int64, ss *session.Session) (int, error) {
	if _, err := w.tx.Exec(`DELETE FROM threads WHERE session_id = ?`, id); err != nil {
		return 0, fmt.Errorf("delete threads: %w", err)
	}
	if _, err := w.tx.Exec(`DELETE FROM rewinds WHERE session_id = ?`, id); err != nil {
		return 0, fmt.Errorf("delete rewinds: %w", err)
	}
	if err := insertThreads(w, id, 0, ss.Threads); err != nil {
		return 0, err
	}
	return countEntries(ss), nil
}

// updateSessionRow refreshes a session's metadata after its content
// changed and bumps its revision.
func updateSessionRow(tx *sql.Tx, id int64, ss *session.Session, newGeneration bool) error {
	diags, err := diagnosticsText(ss.Diagnostics)
	if err != nil {
		return err
	}
	gen := 0
	if newGeneration {
		gen = 1
	}
	_, err = tx.Exec(`UPDATE sessions SET format = ?, version = ?, agent = ?, source = ?, title = ?, cwd = ?, started = ?, diagnostics = ?,
		size = ?, recorded = ?, generation = generation + ?, revision = revision + 1, updated_at = ? WHERE id = ?`,
		string(ss.Format), ss.Version, ss.Agent, ss.Source, ss.Title, ss.CWD, timeText(ss.Started), diags, ss.Size, recordedText(ss.Recorded), gen, timeText(time.Now()), id)
	if err != nil {
		return fmt.Errorf("update session: %w", err)
	}
	return nil
}

// dropMissing deletes the source's stored sessions that the file no longer
// holds.
func dropMissing(tx *sql.Tx, srcID int64, keep map[string]bool) error {
	rows, err := tx.Query(`SELECT id, sid FROM sessions WHERE source_id = ?`, srcID)
	if err != nil {
		return err
	}
	var drop []int64
	for rows.Next() {
		var id int64
		var sid string
		if err := rows.Scan(&id, &sid); err != nil {
			rows.Close()
			return err
		}
		if !keep[sid] {
			drop = append(drop, id)
		}
	}
	rows.Close()
	for _, id := range drop {
		if _, err := tx.Exec(`DELETE FROM sessions WHERE id = ?`, id); err != nil {
			return fmt.Errorf("drop session: %w", err)
		}
	}
	return rows.Err()
}

// allocKey picks the workspace key of a new session: its own id when that
// is free, else the id with a numeric suffix.
func allocKey(tx *sql.Tx, ss *session.Session) (string, error) {
	base := keySafe(ss.ID)
	if base == "" {
		base = keySafe(strings.TrimSuffix(filepath.Base(ss.Source), filepath.Ext(ss.Source)))
	}
	if base == "" {
		base = "session"
	}
	key := base
	for n := 2; ; n++ {
		var one int
		err := tx.QueryRow(`SELECT 1 FROM sessions WHERE key = ?`, key).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return key, nil
		}
		if err != nil {
			return "", err
		}
		key = base + "-" + strconv.Itoa(n)
	}
}

func diagnosticsText(ds []session.Diagnostic) (string, error) {
	b, err := json.Marshal(ds)
	if err != nil {
		return "", fmt.Errorf("encode diagnostics: %w", err)
	}
	return string(b), nil
}

func countEntries(ss *session.Session) int {
	n := 0
	for _, t := range ss.Threads {
		n += len(t.Entries)
	}
	return n
}

// maxKeyBase bounds the part of a key taken from a session id.
const maxKeyBase = 64

// keySafe turns a session id into the base of a workspace key: letters,
// digits, '.', '_' and '-' are kept and runs of anything else become one
// '-', so that a key (which the frontend sends back to name a session)
// never carries markup or other text from an untrusted session file.
func keySafe(id string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.TrimSpace(id) {
		ok := r == '.' || r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= maxKeyBase {
			break
		}
	}
	return strings.Trim(b.String(), "-.")
}

// recordedText encodes an agent's recorded totals for the sessions table:
// "" when there are none.
func recordedText(r *session.Recorded) string {
	if r == nil {
		return ""
	}
	b, err := json.Marshal(r)
	if err != nil {
		return ""
	}
	return string(b)
}

// parseRecorded decodes what recordedText wrote.
func parseRecorded(text string) *session.Recorded {
	if text == "" {
		return nil
	}
	var r session.Recorded
	if json.Unmarshal([]byte(text), &r) != nil {
		return nil
	}
	return &r
}
