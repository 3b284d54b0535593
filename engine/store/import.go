package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"ctxscope/engine/session"
)

// Action tells what an import did.
type Action string

// Import actions.
const (
	ActionImported  Action = "imported"  // a new file: its sessions were added
	ActionAppended  Action = "appended"  // the file grew: only its new records were added
	ActionReplaced  Action = "replaced"  // the file changed in place: its sessions were rewritten
	ActionUnchanged Action = "unchanged" // the file is as stored: nothing was written
	ActionDuplicate Action = "duplicate" // the same content is stored from another path: nothing was written
)

// ImportResult reports one file's import.
type ImportResult struct {
	Path     string          `json:"path"`
	Action   Action          `json:"action"`
	Bytes    int64           `json:"bytes"` // bytes of the file now stored
	Sessions []SessionChange `json:"sessions"`
}

// SessionChange reports what an import did to one session.
type SessionChange struct {
	Key     string `json:"key"`
	Action  Action `json:"action"`
	Added   int    `json:"added"`   // entries written
	Entries int    `json:"entries"` // entries stored now
}

// sourceState is what the workspace knows of a file.
type sourceState struct {
	id   int64
	size int64
	hash string
}

// ImportFile imports the sessions in the file at path, decoding it with
// decode ([DecodeFile] when nil). The file's content hash decides what
// happens: unchanged content writes nothing; content that extends what is
// stored appends only the new records; any other change rewrites the
// file's sessions; content already stored from another path is recorded
// as a duplicate and not stored twice. The whole import is one
// transaction: on failure or crash nothing of it remains.
//
// The last line of a JSON Lines file that is still being written (no
// newline, not yet valid JSON) is left for the next import.
func (s *Store) ImportFile(ctx context.Context, path string, decode Decoder) (*ImportResult, error) {
	if decode == nil {
		decode = DecodeFile
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	data = completePrefix(data)
	res, err := s.importBytes(ctx, abs, data, decode)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	return res, nil
}

func (s *Store) importBytes(ctx context.Context, path string, data []byte, decode Decoder) (*ImportResult, error) {
	hash := contentHash(data)
	res := &ImportResult{Path: path, Bytes: int64(len(data))}
	// A cheap look first, so that an unchanged file is never decoded.
	if act, keys, err := s.quickCheck(ctx, path, data, hash); err != nil || act != "" {
		res.Action, res.Sessions = act, keys
		return res, err
	}
	sessions, err := decode(bytes.NewReader(data), path)
	if err != nil {
		return nil, err
	}
	if len(sessions) == 0 {
		return nil, errors.New("the file holds no session")
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		act, old, err := decide(tx, path, data, hash)
		if err != nil {
			return err
		}
		res.Action = act
		switch act {
		case ActionUnchanged, ActionDuplicate:
			res.Sessions, err = sourceSessions(tx, path, hash)
			return err
		}
		srcID, err := upsertSource(tx, old, path, sessions[0].Format, int64(len(data)), hash)
		if err != nil {
			return err
		}
		res.Sessions, err = writeSessions(tx, srcID, act, sessions)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// quickCheck returns ActionUnchanged or ActionDuplicate with the stored
// sessions when nothing needs writing, and "" otherwise.
func (s *Store) quickCheck(ctx context.Context, path string, data []byte, hash string) (Action, []SessionChange, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return "", nil, err
	}
	defer tx.Rollback()
	act, _, err := decide(tx, path, data, hash)
	if err != nil || (act != ActionUnchanged && act != ActionDuplicate) {
		return "", nil, err
	}
	keys, err := sourceSessions(tx, path, hash)
	return act, keys, err
}

// decide compares the file with what is stored.
func decide(tx *sql.Tx, path string, data []byte, hash string) (Action, *sourceState, error) {
	var st sourceState
	err := tx.QueryRow(`SELECT id, size, hash FROM sources WHERE path = ?`, path).Scan(&st.id, &st.size, &st.hash)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		var other int64
		err := tx.QueryRow(`SELECT id FROM sources WHERE hash = ? AND size = ? LIMIT 1`, hash, len(data)).Scan(&other)
		if err == nil {
			return ActionDuplicate, nil, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return "", nil, err
		}
		return ActionImported, nil, nil
	case err != nil:
		return "", nil, fmt.Errorf("read source: %w", err)
	case st.hash == hash && st.size == int64(len(data)):
		return ActionUnchanged, &st, nil
	case st.size < int64(len(data)) && contentHash(data[:st.size]) == st.hash:
		return ActionAppended, &st, nil
	}
	return ActionReplaced, &st, nil
}

// sourceSessions lists the sessions stored from path, or from the source
// with the given content when path is not stored.
func sourceSessions(tx *sql.Tx, path, hash string) ([]SessionChange, error) {
	rows, err := tx.Query(`SELECT s.key, (SELECT count(*) FROM entries e JOIN threads t ON t.id = e.thread_id WHERE t.session_id = s.id)
		FROM sessions s WHERE s.source_id = COALESCE((SELECT id FROM sources WHERE path = ?), (SELECT id FROM sources WHERE hash = ? LIMIT 1))
		ORDER BY s.id`, path, hash)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SessionChange
	for rows.Next() {
		c := SessionChange{Action: ActionUnchanged}
		if err := rows.Scan(&c.Key, &c.Entries); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func upsertSource(tx *sql.Tx, old *sourceState, path string, format session.Format, size int64, hash string) (int64, error) {
	now := timeText(time.Now())
	if old == nil {
		r, err := tx.Exec(`INSERT INTO sources (path, format, size, hash, imported_at) VALUES (?,?,?,?,?)`, path, string(format), size, hash, now)
		if err != nil {
			return 0, fmt.Errorf("insert source: %w", err)
		}
		return r.LastInsertId()
	}
	_, err := tx.Exec(`UPDATE sources SET format = ?, size = ?, hash = ?, imported_at = ? WHERE id = ?`, string(format), size, hash, now, old.id)
	if err != nil {
		return 0, fmt.Errorf("update source: %w", err)
	}
	return old.id, nil
}

// inTx runs fn in a write transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}
