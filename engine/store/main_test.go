package store

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"ctxscope/engine/store/pgtest"
)

// The store's tests run against SQLite, and against PostgreSQL when
// CTXSCOPE_TEST_STORE is "postgres" (make test runs them both ways): a
// throwaway server is started for the run, and each test opens a
// database of its own on it.
var testEngine = os.Getenv("CTXSCOPE_TEST_STORE")

// pgServer is the run's PostgreSQL server: started for the whole run
// when the engine under test is PostgreSQL, or by the first benchmark
// that compares the engines (see postgresServer).
var (
	pgServer    *pgtest.Server
	pgStartOnce sync.Once
	pgStartErr  error
)

func TestMain(m *testing.M) {
	if testEngine != "" && testEngine != "sqlite" && testEngine != "postgres" {
		fmt.Fprintf(os.Stderr, "CTXSCOPE_TEST_STORE=%q: want sqlite or postgres\n", testEngine)
		os.Exit(2)
	}
	if testEngine == "postgres" {
		if _, err := postgresServer(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	code := m.Run()
	if pgServer != nil {
		if err := pgServer.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	os.Exit(code)
}

// postgresServer starts the run's PostgreSQL server on first use.
func postgresServer() (*pgtest.Server, error) {
	pgStartOnce.Do(func() { pgServer, pgStartErr = pgtest.Start() })
	return pgServer, pgStartErr
}

// openEngine opens a new, empty workspace in engine ("sqlite" or
// "postgres").
func openEngine(tb testing.TB, engine string) *Store {
	tb.Helper()
	var s *Store
	var err error
	if engine == "postgres" {
		var srv *pgtest.Server
		var url string
		if srv, err = postgresServer(); err == nil {
			if url, err = srv.Database(context.Background()); err == nil {
				s, err = OpenPostgres(context.Background(), url, tb.TempDir())
			}
		}
	} else {
		s, err = Open(tb.TempDir())
	}
	if err != nil {
		tb.Fatalf("open: %v", err)
	}
	return s
}

// openTemp opens a new, empty workspace in the engine under test, closed
// when the test ends.
func openTemp(t testing.TB) *Store {
	t.Helper()
	engine := "sqlite"
	if testEngine == "postgres" {
		engine = "postgres"
	}
	s := openEngine(t, engine)
	t.Cleanup(func() { s.Close() })
	return s
}

// tableNames lists the workspace's tables.
func tableNames(t testing.TB, s *Store) []string {
	t.Helper()
	q := `SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`
	if s.Engine() == "postgres" {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name <> 'ctxscope_schema' ORDER BY table_name`
	}
	rows, err := s.read.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	return names
}
