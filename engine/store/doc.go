// Package store is ctxscope's workspace: one SQLite database (pure Go,
// modernc.org/sqlite) that keeps what the user imported, computed and
// annotated, and survives crashes; or, for a team, one PostgreSQL database
// (pgx) that several ctxscope servers share ([OpenPostgres]). The two
// engines run the same queries and migrations; what differs between them
// is a dialect (dialect.go).
//
// # Layout
//
// A workspace is a directory holding workspace.db (plus its WAL files) and
// whatever derived data other packages keep beside it, such as the search
// index. [DefaultDir] names the default directory; [Open] opens or creates
// one. A PostgreSQL workspace keeps its data in the database and only the
// derived data in the directory; [OpenLocation] opens either.
//
// # What it holds
//
//   - sessions, threads, entries and blocks of imported agent sessions,
//     with large texts (tool outputs mostly) kept once in a
//     content-addressed blob table;
//   - the source files they came from, with the size and SHA-256 of the
//     bytes consumed, so that re-importing a file is a no-op and a file
//     that grew is imported incrementally;
//   - the tables of memory layers (passages, entities, relations,
//     clusters, experiences), which engine/memory/memstore reads and
//     writes through [Store.Write] and [Store.Reader];
//   - annotations and settings.
//
// # Concurrency and durability
//
// The database runs in WAL mode with foreign keys on. Writes go through a
// single connection in IMMEDIATE transactions; reads use a separate pool
// of query-only connections and never block on the writer. Every import
// and every multi-row write is one transaction, so a crash leaves either
// all of it or none of it. In PostgreSQL every write transaction first
// takes one advisory lock, so that the writers of every server sharing
// the database take turns as SQLite's do; readers use read-only
// transactions. Writes that other processes must hear of go into the
// change feed ([Store.ChangesSince]) in the same transaction.
//
// # Schema versions
//
// The schema is versioned (PRAGMA user_version in SQLite, the one row of
// ctxscope_schema in PostgreSQL) and migrated forward on open. A database
// written by a newer ctxscope (an unknown, higher version) is refused with
// [ErrFutureSchema] before anything is written.
package store
