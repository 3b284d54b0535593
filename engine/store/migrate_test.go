package store

import (
	"crypto/sha256"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seeds holds, for each schema version, rows that a workspace at that
// version could hold; seeds[v] is valid once migrations[:v+1] ran.
var seeds = []string{
	`INSERT INTO sources (id, path, format, size, hash, imported_at) VALUES (1, '/x.jsonl', 'pi', 10, 'h', '');
	 INSERT INTO sessions (id, key, source_id, sid, format, version, agent, source, title, cwd, started, diagnostics, imported_at, updated_at)
	 VALUES (1, 'k', 1, 's', 'pi', 3, 'pi', '/x.jsonl', 't', '', '', '[]', '', '');
	 INSERT INTO threads (id, session_id, ord, tid, kind, parent_tid, title, leaf_id) VALUES (1, 1, 0, 'main', 'main', '', '', '');
	 INSERT INTO entries (thread_id, ord, eid, parent_eid, line, time, kind, type, value, target) VALUES (1, 0, 'e1', '', 1, '', 'meta', 'x', '', '');`,
	`INSERT INTO episodes (session_id, origin, thread, ord, name, kind, description, dependencies, completed, start_entry, end_entry)
	 VALUES (1, 'delimiter', 'main', 0, 'n', 'expl', '', '[]', 1, 'e1', 'e1');`,
	`INSERT INTO memory_sets (name, kind, created_at) VALUES ('m', 'locomo', '');`,
	`INSERT INTO annotations (scope, question, item, annotator, notes, time) VALUES ('m', 'q', 'i', 'a', '', '');`,
	`UPDATE memory_sets SET metadata = '{"speakers":["A"]}' WHERE name = 'm';`,
	`UPDATE sources SET importer = 1 WHERE id = 1;
	 INSERT INTO blocks (entry_id, ord, type, redacted, tool_call_id, tool_name, is_error, mime, content_empty, size)
	 VALUES ((SELECT id FROM entries LIMIT 1), 0, 'opaque', 0, '', '', 0, '', 0, 1234);`,
	`UPDATE sessions SET size = 5, recorded = '{"usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0},"from":"x"}' WHERE id = 1;`,
	`INSERT INTO changes (kind, at) VALUES ('sessions', '');`,
	`INSERT INTO user_tokens (name, hash, created_at) VALUES ('ann', 'h', '');`,
	`INSERT INTO user_tokens (name, hash, created_at, role) VALUES ('bob', 'h2', '', 'operator');`,
	`INSERT INTO blobs (hash, size, data) VALUES ('p', 3, X'');
	 INSERT INTO blob_parts (hash, part, data) VALUES ('p', 0, X'6869'), ('p', 1, X'21');`,
	`INSERT INTO rewinds (session_id, revision, thread, from_ord, eids) VALUES (1, 2, 0, 1, '["e2"]');`,
	``, // the episodes and replay runs tables dropped
}

// createAt builds a workspace database at schema version v with the seed
// rows of every version up to v.
func createAt(t *testing.T, dir string, v int) {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(filepath.Join(dir, DBName), false))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := migrate(db, sqliteDialect{}, v); err != nil {
		t.Fatalf("migrate to %d: %v", v, err)
	}
	for i := 0; i < v; i++ {
		if _, err := db.Exec(seeds[i]); err != nil {
			t.Fatalf("seed %d: %v", i+1, err)
		}
	}
}

// TestMigrateFromEveryVersion opens a workspace written at each earlier
// schema version and checks that it reaches the latest version with its
// rows intact and takes new imports.
func TestMigrateFromEveryVersion(t *testing.T) {
	if len(seeds) != LatestSchema() {
		t.Fatalf("%d seeds for %d schema versions: add a seed with each migration", len(seeds), LatestSchema())
	}
	for v := 0; v < LatestSchema(); v++ {
		t.Run("from"+itoa(v), func(t *testing.T) {
			dir := t.TempDir()
			createAt(t, dir, v)
			s, err := Open(dir)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer s.Close()
			if got, _ := s.SchemaVersion(); got != LatestSchema() {
				t.Fatalf("schema version %d, want %d", got, LatestSchema())
			}
			counts := rowCounts(t, s)
			for table, n := range map[string]int{"sessions": 1, "memory_sets": 1, "annotations": 1, "rewinds": 1} {
				want := 0
				if strings.Contains(strings.Join(seeds[:v], ""), "INSERT INTO "+table) {
					want = n
				}
				if counts[table] != want {
					t.Errorf("%s: %d rows, want %d", table, counts[table], want)
				}
			}
			mustImport(t, s, filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl"))
			if verdict, err := s.IntegrityCheck(); err != nil || verdict != "ok" {
				t.Fatalf("integrity: %q %v", verdict, err)
			}
		})
	}
}

// TestFutureSchemaRefused checks that a workspace from a newer build is
// refused with a clear message and left byte for byte as it was.
func TestFutureSchemaRefused(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	mustImport(t, s, filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl"))
	if _, err := s.write.Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	path := filepath.Join(dir, DBName)
	before := fileSum(t, path)
	_, err = Open(dir)
	if !errors.Is(err, ErrFutureSchema) {
		t.Fatalf("got %v, want ErrFutureSchema", err)
	}
	for _, want := range []string{"version 99", "newer ctxscope", path} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if after := fileSum(t, path); after != before {
		t.Fatal("the refused workspace was modified")
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		if fi, _ := os.Stat(path + "-wal"); fi.Size() > 0 {
			t.Fatal("the refused workspace got a non-empty write-ahead log")
		}
	}
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(data)
}
