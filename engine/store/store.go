package store

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// DBName is the database file's name inside a workspace directory.
const DBName = "workspace.db"

// Store is an open workspace. Its methods are safe for concurrent use.
type Store struct {
	dir   string
	d     dialect
	write *sql.DB // one connection: the single writer
	read  *sql.DB // query-only connections for readers
}

// DefaultDir returns the default workspace directory: ctxscope under
// $XDG_DATA_HOME (or ~/.local/share) on Linux and the BSDs, and under the
// user's configuration directory elsewhere (Application Support on macOS,
// %AppData% on Windows).
func DefaultDir() (string, error) {
	if runtime.GOOS == "linux" || runtime.GOOS == "freebsd" || runtime.GOOS == "openbsd" || runtime.GOOS == "netbsd" {
		if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
			return filepath.Join(d, "ctxscope"), nil
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("store: find the default workspace: %w", err)
		}
		return filepath.Join(home, ".local", "share", "ctxscope"), nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("store: find the default workspace: %w", err)
	}
	return filepath.Join(d, "ctxscope"), nil
}

// Open opens the workspace in dir, creating the directory and the database
// when they do not exist ("" means [DefaultDir]) and migrating an older
// schema forward. A database whose schema is newer than this build knows
// is refused with [ErrFutureSchema] and left untouched.
func Open(dir string) (*Store, error) {
	dir, err := workspaceDir(dir)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, DBName)
	if err := checkVersion(path); err != nil {
		return nil, err
	}
	w, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	if err := migrate(w, sqliteDialect{}, len(migrations)); err != nil {
		w.Close()
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	if err := privateFiles(path, path+"-wal", path+"-shm"); err != nil {
		w.Close()
		return nil, err
	}
	r, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)))
	return &Store{dir: dir, d: sqliteDialect{}, write: w, read: r}, nil
}

// workspaceDir makes the workspace directory dir ("" means [DefaultDir])
// when it does not exist and returns it. The workspace holds the user's
// sessions: private to the user, as directories an earlier version
// created more open become.
func workspaceDir(dir string) (string, error) {
	if dir == "" {
		d, err := DefaultDir()
		if err != nil {
			return "", err
		}
		dir = d
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("store: create workspace: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return "", fmt.Errorf("store: make the workspace private: %w", err)
	}
	return dir, nil
}

// privateFiles makes the files that exist of paths readable and writable
// by their owner only. SQLite creates its files as the umask allows.
func privateFiles(paths ...string) error {
	for _, p := range paths {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("store: make %s private: %w", p, err)
		}
	}
	return nil
}

// dsn builds the connection string: WAL, foreign keys, a busy timeout so
// that readers and a second process wait instead of failing, and IMMEDIATE
// write transactions so that writers queue at BEGIN rather than deadlock
// on lock upgrades. Reader connections are query-only. Temporary storage
// is in memory: each insert of an import keeps a statement journal (the
// pages it changes, so that it can be undone alone), and in a temporary
// file those writes took a third of the import of a 64 MB session.
func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "temp_store(MEMORY)")
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Set("_txlock", "immediate")
	}
	return "file:" + escapePath(path) + "?" + q.Encode()
}

// Dir returns the workspace directory.
func (s *Store) Dir() string { return s.dir }

// Close checkpoints the write-ahead log (of SQLite) and closes the
// database.
func (s *Store) Close() error {
	cerr := s.d.checkpoint(s.write)
	return errors.Join(s.read.Close(), s.write.Close(), cerr)
}

// Engine names the database engine the workspace lives in: "sqlite" or
// "postgres".
func (s *Store) Engine() string { return s.d.name() }

// ignoreBusy drops the error of a checkpoint that a concurrent reader
// prevented: the log is then checkpointed later and nothing is lost.
func ignoreBusy(err error) error {
	if err != nil && (strings.Contains(err.Error(), "SQLITE_BUSY") || strings.Contains(err.Error(), "database is locked")) {
		return nil
	}
	return err
}

// IntegrityCheck checks the database (PRAGMA integrity_check in SQLite)
// and returns its verdict: "ok" for a sound database.
func (s *Store) IntegrityCheck() (string, error) {
	verdict, err := s.d.integrityCheck(s.read)
	if err != nil {
		return "", fmt.Errorf("store: integrity check: %w", err)
	}
	return verdict, nil
}

// SchemaVersion returns the schema version of the open database.
func (s *Store) SchemaVersion() (int, error) {
	tx, err := s.read.Begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	return s.d.schemaVersion(tx)
}

// escapePath escapes a file path for a file: URI.
func escapePath(path string) string { return (&url.URL{Path: path}).EscapedPath() }

// DatabaseBytes returns how many bytes the workspace's database takes:
// the SQLite file with its write-ahead log, or the PostgreSQL database.
func (s *Store) DatabaseBytes() (int64, error) { return s.d.size(s) }

// Checkpoint copies SQLite's write-ahead log into the database file and
// truncates the log, so that the file's size is the workspace's. It does
// nothing for PostgreSQL.
func (s *Store) Checkpoint() error { return s.d.checkpoint(s.write) }
