package store

import (
	"context"
	"database/sql"
)

// A package that owns tables of its own in the workspace (the memory's,
// engine/memory/memstore) reads and writes them through the methods
// below, so that its writes queue with every other writer, reach every
// process in the change feed, and run on either engine. Its queries are
// written, as the store's are, in the SQL that SQLite and PostgreSQL
// share, with ? placeholders; its tables are created by the store's
// migrations, because a workspace's schema has one version.

// Write runs fn in the workspace's write transaction (on PostgreSQL, under
// the workspace's write lock) and commits when fn returns nil. When fn
// reports that it changed something, a change of kind is recorded in the
// feed in the same transaction, so that other processes see the change
// exactly when they see the write.
func (s *Store) Write(ctx context.Context, kind ChangeKind, fn func(tx *sql.Tx) (changed bool, err error)) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		changed, err := fn(tx)
		if err != nil || !changed {
			return err
		}
		return recordChange(tx, kind)
	})
}

// Reader returns the workspace's query-only connections, which read what
// the last committed write left.
func (s *Store) Reader() *sql.DB { return s.read }

// Snapshot begins a read-only transaction whose reads all see one
// committed state, whatever is written meanwhile: on SQLite, which reads
// a snapshot from a transaction's first read on; on PostgreSQL, at
// REPEATABLE READ (its default, READ COMMITTED, lets each statement see
// the writes committed before it). The caller rolls it back when done.
func (s *Store) Snapshot(ctx context.Context) (*sql.Tx, error) {
	opts := &sql.TxOptions{ReadOnly: true}
	if s.d.name() == "postgres" {
		opts.Isolation = sql.LevelRepeatableRead
	}
	return s.read.BeginTx(ctx, opts)
}
