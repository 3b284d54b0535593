package opencode

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"

	_ "modernc.org/sqlite" // the database/sql driver for opencode.db

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// openDatabase opens an opencode.db read-only, through SQLite, which
// reads its write-ahead log too: a live session's rows sit there.
func openDatabase(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}

// IsDatabase reports whether the SQLite database at path is an OpenCode
// database: its schema, read by SQLite (wherever its pages lie, the
// write-ahead log included), has the tables session, message and part
// with the columns ctxscope reads. A file SQLite cannot open is not one.
func IsDatabase(path string) bool {
	db, err := openDatabase(path)
	if err != nil {
		return false
	}
	defer db.Close()
	for table, cols := range map[string][]string{"session": {"id", "time_created"}, "message": {"id", "session_id", "data"}, "part": {"id", "message_id", "data"}} {
		found := map[string]bool{}
		rows, err := db.Query(`SELECT name FROM pragma_table_info(?)`, table)
		if err != nil {
			return false
		}
		for rows.Next() {
			var name string
			if rows.Scan(&name) == nil {
				found[name] = true
			}
		}
		rows.Close()
		for _, c := range cols {
			if !found[c] {
				return false
			}
		}
	}
	return true
}

// readDatabase reads every session of an opencode.db, in order of
// creation, passing each to emit.
func readDatabase(path string, emit func(*session.Session) error) error {
	db, err := openDatabase(path)
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT id FROM session ORDER BY time_created, id`)
	if err != nil {
		return fmt.Errorf("%s: not an OpenCode database: %w", path, err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	for _, id := range ids {
		s, err := readDBSession(db, id, path)
		if err != nil {
			return fmt.Errorf("%s: session %s: %w", path, id, err)
		}
		if err := emit(s); err != nil {
			return err
		}
	}
	return nil
}

// readDBSession reads one session with its messages and parts.
func readDBSession(db *sql.DB, id, path string) (*session.Session, error) {
	var info sessionInfo
	err := db.QueryRow(`SELECT id, COALESCE(parent_id, ''), COALESCE(title, ''), time_created FROM session WHERE id = ?`, id).
		Scan(&info.ID, &info.ParentID, &info.Title, &info.Time.Created)
	if err != nil {
		return nil, err
	}
	// Columns that not every version has: a missing one leaves its field empty.
	_ = db.QueryRow(`SELECT COALESCE(directory, '') FROM session WHERE id = ?`, id).Scan(&info.Directory)
	_ = db.QueryRow(`SELECT COALESCE(version, '') FROM session WHERE id = ?`, id).Scan(&info.Version)
	msgs, byID, diags, err := readDBMessages(db, id, path)
	if err != nil {
		return nil, err
	}
	partDiags, err := readDBParts(db, id, path, msgs, byID)
	if err != nil {
		return nil, err
	}
	diags = append(diags, partDiags...)
	s := convert(info, msgs, path)
	s.Diagnostics = append(diags, s.Diagnostics...)
	return s, nil
}

// readDBMessages reads session id's messages in the order they were made,
// with each one's index by id; a message whose data does not parse is
// skipped with a diagnostic at its place in that order.
func readDBMessages(db *sql.DB, id, path string) (msgs []message, byID map[string]int, diags []session.Diagnostic, err error) {
	rows, err := db.Query(`SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id`, id)
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	byID = map[string]int{}
	for rows.Next() {
		var mid, data string
		if err := rows.Scan(&mid, &data); err != nil {
			return nil, nil, nil, err
		}
		m := message{line: len(msgs) + 1}
		if err := json.Unmarshal([]byte(data), &m.info); err != nil {
			diags = append(diags, session.Diagnostic{File: path, Line: len(msgs) + 1, Severity: session.SeverityError,
				Message: fmt.Sprintf("message %s: %s; skipped", mid, norm.JSONError(err))})
			continue
		}
		m.info.ID = mid
		byID[mid] = len(msgs)
		msgs = append(msgs, m)
	}
	return msgs, byID, diags, rows.Err()
}

// readDBParts adds session id's parts to their messages; a part whose
// data does not parse is skipped with a diagnostic at its message.
func readDBParts(db *sql.DB, id, path string, msgs []message, byID map[string]int) ([]session.Diagnostic, error) {
	rows, err := db.Query(`SELECT message_id, data FROM part WHERE session_id = ? ORDER BY id`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var diags []session.Diagnostic
	for rows.Next() {
		var mid, data string
		if err := rows.Scan(&mid, &data); err != nil {
			return nil, err
		}
		i, ok := byID[mid]
		if !ok { // the part of a message skipped above
			continue
		}
		var p partInfo
		if err := json.Unmarshal([]byte(data), &p); err != nil {
			diags = append(diags, session.Diagnostic{File: path, Line: msgs[i].line, Severity: session.SeverityError,
				Message: fmt.Sprintf("a part of message %s: %s; skipped", mid, norm.JSONError(err))})
			continue
		}
		msgs[i].parts = append(msgs[i].parts, p)
	}
	return diags, rows.Err()
}
