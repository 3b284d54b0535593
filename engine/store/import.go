package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"ctxscope/engine/ingest"
	"ctxscope/engine/inputfile"
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
	// Diagnostics are what the importer reported reading the file, as
	// file:line problems (none when nothing was decoded: an unchanged
	// file).
	Diagnostics []session.Diagnostic `json:"diagnostics,omitempty"`
	// Decoded is the session as the import read it, equal to what Load
	// returns for Key at Revision, so that whoever opens it next need
	// not read it back. It is set only for an import asked to keep it
	// ([KeepDecoded]) of a file read as it streams (one session).
	Decoded  *session.Session `json:"-"`
	Revision int              `json:"-"` // the session's revision, with Decoded
}

// ImportOption changes how [Store.ImportFile] imports.
type ImportOption func(*importOptions)

type importOptions struct {
	keep bool
}

// KeepDecoded has an import hand back the session it decoded
// ([SessionChange.Decoded]), for a caller that opens it next: it then
// holds the whole session in memory, as opening it would. A folder's
// import should not ask it.
func KeepDecoded() ImportOption { return func(o *importOptions) { o.keep = true } }

// sourceState is what the workspace knows of a file.
type sourceState struct {
	id       int64
	size     int64
	hash     string
	importer int // the ingest.Version that read it
}

// ImportFile imports the sessions in the file at path, which must be a
// regular file. The file's content hash decides what happens: unchanged
// content writes nothing; content that extends what is stored appends only
// the new records; any other change rewrites the file's sessions; content
// already stored from another path is recorded as a duplicate and not
// stored twice. The whole import is one transaction: on failure or crash
// nothing of it remains.
//
// Memory stays bounded by the largest record, whatever the file's size:
// the file is hashed in chunks, line-oriented formats (pi, Claude Code,
// Codex) are decoded and written entry by entry, and formats that hold
// several sessions write each as soon as it is read. The last line of a
// JSON Lines file that is still being written (no newline, not yet valid
// JSON) is left for the next import.
func (s *Store) ImportFile(ctx context.Context, path string, opts ...ImportOption) (*ImportResult, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	var o importOptions
	for _, opt := range opts {
		opt(&o)
	}
	res, err := s.importFile(ctx, abs, false, o)
	if errors.Is(err, errNotPrefix) {
		res, err = s.importFile(ctx, abs, true, o)
	}
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	return res, nil
}

// importFile imports the file at abs; rewrite turns an append into a
// rewrite, for a file whose stored part turned out to have changed.
func (s *Store) importFile(ctx context.Context, abs string, rewrite bool, o importOptions) (*ImportResult, error) {
	f, info, err := inputfile.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var storedSize int64
	err = s.read.QueryRowContext(ctx, `SELECT size FROM sources WHERE path = ?`, abs).Scan(&storedSize)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("read source: %w", err)
	}
	scan, err := scanSource(f, info.Size(), storedSize)
	if err != nil {
		return nil, err
	}
	res := &ImportResult{Path: abs, Bytes: scan.size}
	// A cheap look first, so that an unchanged file is never decoded.
	if act, keys, err := s.quickCheck(ctx, abs, scan); err != nil || act != "" {
		res.Action, res.Sessions = act, keys
		return res, err
	}
	src, err := openSource(f, info.Size(), abs, scan)
	if err != nil {
		return nil, err
	}
	err = s.inCopyTx(ctx, func(tx *sql.Tx, copy copyRows) (werr error) {
		res.Action, res.Sessions, werr = src.write(tx, copy, rewrite, o)
		return werr
	})
	if err != nil {
		return nil, err
	}
	if len(res.Sessions) == 0 {
		return nil, errors.New("the file holds no session")
	}
	return res, nil
}

// source is a file an import decodes and writes: where it is, what its
// scan found, its format, and the bytes to read (those of the scan).
type source struct {
	abs  string
	scan sourceScan
	head []byte // the first bytes, which the format was detected from
	im   ingest.Importer
	body io.Reader
}

// openSource detects the format of file f (of size bytes, at abs) from
// its first bytes.
func openSource(f *os.File, size int64, abs string, scan sourceScan) (*source, error) {
	if scan.size == 0 {
		return nil, errors.New("the file is empty")
	}
	head := make([]byte, min(scan.size, ingest.SniffSize))
	if _, err := f.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read: %w", err)
	}
	im, err := ingest.DetectFile(abs, head)
	if err != nil {
		return nil, err
	}
	var body io.Reader = io.NewSectionReader(f, 0, scan.size)
	if scan.size == size {
		body = f // whole: formats that need random access (.eval zips) read it in place
	}
	return &source{abs: abs, scan: scan, head: head, im: im, body: body}, nil
}

// write writes the source's sessions in tx, as the action the stored
// source calls for (an append becomes a rewrite when rewrite is set),
// and returns the action and the sessions it changed.
func (src *source) write(tx *sql.Tx, copy copyRows, rewrite bool, o importOptions) (Action, []SessionChange, error) {
	act, old, err := decide(tx, src.abs, src.scan)
	if err != nil {
		return "", nil, err
	}
	if rewrite && act == ActionAppended {
		act = ActionReplaced
	}
	switch act {
	case ActionUnchanged, ActionDuplicate:
		keys, err := sourceSessions(tx, src.abs, src.scan.hash)
		return act, keys, err
	}
	srcID, err := upsertSource(tx, old, src.abs, src.im.Format(), src.scan.size, src.scan.hash)
	if err != nil {
		return act, nil, err
	}
	if err := recordChange(tx, ChangeSessions); err != nil {
		return act, nil, err
	}
	if ingest.CanStream(src.im, src.head) {
		c, err := streamSession(tx, copy, srcID, act, src.im, src.body, src.abs, o.keep)
		if err != nil {
			return act, nil, err
		}
		return act, []SessionChange{c}, nil
	}
	changes, err := writeEach(tx, copy, srcID, act, src.im, src.body, src.abs)
	return act, changes, err
}

// quickCheck returns ActionUnchanged or ActionDuplicate with the stored
// sessions when nothing needs writing, and "" otherwise.
func (s *Store) quickCheck(ctx context.Context, path string, scan sourceScan) (Action, []SessionChange, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return "", nil, err
	}
	defer tx.Rollback()
	act, _, err := decide(tx, path, scan)
	if err != nil || (act != ActionUnchanged && act != ActionDuplicate) {
		return "", nil, err
	}
	keys, err := sourceSessions(tx, path, scan.hash)
	return act, keys, err
}

// decide compares the file with what is stored.
func decide(tx *sql.Tx, path string, scan sourceScan) (Action, *sourceState, error) {
	var st sourceState
	err := tx.QueryRow(`SELECT id, size, hash, importer FROM sources WHERE path = ?`, path).Scan(&st.id, &st.size, &st.hash, &st.importer)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		var other int64
		err := tx.QueryRow(`SELECT id FROM sources WHERE hash = ? AND size = ? LIMIT 1`, scan.hash, scan.size).Scan(&other)
		if err == nil {
			return ActionDuplicate, nil, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return "", nil, err
		}
		return ActionImported, nil, nil
	case err != nil:
		return "", nil, fmt.Errorf("read source: %w", err)
	case st.importer != ingest.Version:
		return ActionReplaced, &st, nil // read by other importers: read it again
	case st.hash == scan.hash && st.size == scan.size:
		return ActionUnchanged, &st, nil
	case st.size < scan.size && scan.prefixHash == st.hash:
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
		var id int64
		err := tx.QueryRow(`INSERT INTO sources (path, format, size, hash, imported_at, importer) VALUES (?,?,?,?,?,?) RETURNING id`,
			path, string(format), size, hash, now, ingest.Version).Scan(&id)
		if err != nil {
			return 0, fmt.Errorf("insert source: %w", err)
		}
		return id, nil
	}
	_, err := tx.Exec(`UPDATE sources SET format = ?, size = ?, hash = ?, imported_at = ?, importer = ? WHERE id = ?`, string(format), size, hash, now, ingest.Version, old.id)
	if err != nil {
		return 0, fmt.Errorf("update source: %w", err)
	}
	return old.id, nil
}

// inCopyTx runs fn in a write transaction, committing when it returns nil,
// with the engine's way to write rows in batches in it (nil for none).
func (s *Store) inCopyTx(ctx context.Context, fn func(*sql.Tx, copyRows) error) error {
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx, s.d.copier(ctx, conn)); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// inTx runs fn in a write transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return s.inCopyTx(ctx, func(tx *sql.Tx, _ copyRows) error { return fn(tx) })
}
