package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// dialect is what differs between the database engines a workspace can
// live in: SQLite, a file beside the user's other data, and PostgreSQL, a
// server that several ctxscope servers share. Everything else (the
// queries, the migrations, the transactions) is the same for both: the
// queries are written in the subset the two engines share, with ?
// placeholders, and the migrations in SQLite's types, which [dialect.ddl]
// translates.
type dialect interface {
	// name is the engine's name, as a workspace's description shows it.
	name() string
	// ddl translates a migration written for SQLite into the engine's
	// dialect.
	ddl(migration string) string
	// schemaVersion reads the schema version inside tx (0 for a new
	// database); setSchemaVersion records v as it.
	schemaVersion(tx *sql.Tx) (int, error)
	setSchemaVersion(tx *sql.Tx, v int) error
	// checkpoint makes the stored data compact where the engine needs it
	// (SQLite's write-ahead log); integrityCheck returns "ok" for a sound
	// database or what is wrong.
	checkpoint(db *sql.DB) error
	integrityCheck(db *sql.DB) (string, error)
	// size is how many bytes the workspace's database takes.
	size(s *Store) (int64, error)
	// copier returns how an import's transaction on conn writes rows in
	// batches, on a server, where each statement is a round trip; nil to
	// write each row as it comes.
	copier(ctx context.Context, conn *sql.Conn) copyRows
}

// sqliteDialect is a workspace in an SQLite file. The schema version is
// PRAGMA user_version.
type sqliteDialect struct{}

func (sqliteDialect) name() string { return "sqlite" }

func (sqliteDialect) copier(context.Context, *sql.Conn) copyRows { return nil }

func (sqliteDialect) ddl(migration string) string { return migration }

func (sqliteDialect) schemaVersion(tx *sql.Tx) (v int, err error) {
	err = tx.QueryRow("PRAGMA user_version").Scan(&v)
	return v, err
}

func (sqliteDialect) setSchemaVersion(tx *sql.Tx, v int) error {
	_, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", v))
	return err
}

func (sqliteDialect) checkpoint(db *sql.DB) error {
	_, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	return ignoreBusy(err)
}

func (sqliteDialect) size(s *Store) (int64, error) {
	var n int64
	for _, name := range []string{DBName, DBName + "-wal"} {
		st, err := os.Stat(filepath.Join(s.dir, name))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return 0, err
		}
		if err == nil {
			n += st.Size()
		}
	}
	return n, nil
}

func (sqliteDialect) integrityCheck(db *sql.DB) (verdict string, err error) {
	err = db.QueryRow("PRAGMA integrity_check").Scan(&verdict)
	return verdict, err
}
