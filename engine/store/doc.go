// Package store is ctxscope's workspace: one SQLite database (pure Go,
// modernc.org/sqlite) that keeps what the user imported, computed and
// annotated, and survives crashes.
//
// # Layout
//
// A workspace is a directory holding workspace.db (plus its WAL files) and
// whatever derived data other packages keep beside it, such as the search
// index. [DefaultDir] names the default directory; [Open] opens or creates
// one.
//
// # What it holds
//
//   - sessions, threads, entries and blocks of imported agent sessions,
//     with large texts (tool outputs mostly) kept once in a
//     content-addressed blob table;
//   - the source files they came from, with the size and SHA-256 of the
//     bytes consumed, so that re-importing a file is a no-op and a file
//     that grew is imported incrementally;
//   - episodes, cached replay runs keyed by everything that decides their
//     result, memory layers (passages, entities, relations, clusters,
//     experiences), annotations and settings.
//
// # Concurrency and durability
//
// The database runs in WAL mode with foreign keys on. Writes go through a
// single connection in IMMEDIATE transactions; reads use a separate pool
// of query-only connections and never block on the writer. Every import
// and every multi-row write is one transaction, so a crash leaves either
// all of it or none of it.
//
// # Schema versions
//
// The schema is versioned with PRAGMA user_version and migrated forward on
// open. A database written by a newer ctxscope (an unknown, higher
// version) is refused with [ErrFutureSchema] before anything is written.
package store
