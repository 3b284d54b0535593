package store

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
)

// ErrFutureSchema is returned by [Open] for a workspace written by a newer
// ctxscope, whose schema this build does not know. The workspace is left
// untouched.
var ErrFutureSchema = errors.New("store: workspace schema is newer than this ctxscope")

// LatestSchema is the schema version this build writes: the number of
// migrations it knows.
func LatestSchema() int { return len(migrations) }

// checkVersion refuses a database from the future before anything opens it
// for writing, so that not even a journal-mode change touches it.
func checkVersion(path string) error {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	db, err := sql.Open("sqlite", "file:"+escapePath(path)+"?mode=ro")
	if err != nil {
		return fmt.Errorf("store: open %s: %w", path, err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("store: %s: read the schema version: %w", path, err)
	}
	return futureError(path, v)
}

func futureError(path string, v int) error {
	if v > len(migrations) {
		return fmt.Errorf("%w: %s has schema version %d, this build knows versions up to %d; open it with a newer ctxscope", ErrFutureSchema, path, v, len(migrations))
	}
	return nil
}

// migrate brings db forward to schema version target, one transaction per
// migration, each recording the version it reaches as it commits.
// Migrations are forward-only: there is no way down.
func migrate(db *sql.DB, d dialect, target int) error {
	for {
		tx, err := db.Begin()
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		v, err := d.schemaVersion(tx)
		if err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate: read the schema version: %w", err)
		}
		if err := futureError("the workspace", v); err != nil {
			tx.Rollback()
			return err
		}
		if v >= target {
			return tx.Rollback()
		}
		m := migrations[v]
		if _, err := tx.Exec(d.ddl(m.sql)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate to version %d (%s): %w", v+1, m.name, err)
		}
		if err := d.setSchemaVersion(tx, v+1); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate to version %d: %w", v+1, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrate to version %d: %w", v+1, err)
		}
	}
}
