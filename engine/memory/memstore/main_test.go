package memstore

import (
	"context"
	"fmt"
	"os"
	"testing"

	wstore "ctxscope/engine/store"
	"ctxscope/engine/store/pgtest"
)

// The memory tables' tests run against SQLite, and against PostgreSQL
// when CTXSCOPE_TEST_STORE is "postgres" (make test runs them both ways,
// with the store's): a throwaway server is started for the run, and each
// test opens a database of its own on it.
var testEngine = os.Getenv("CTXSCOPE_TEST_STORE")

var pgServer *pgtest.Server

func TestMain(m *testing.M) {
	switch testEngine {
	case "", "sqlite":
	case "postgres":
		var err error
		if pgServer, err = pgtest.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	default:
		fmt.Fprintf(os.Stderr, "CTXSCOPE_TEST_STORE=%q: want sqlite or postgres\n", testEngine)
		os.Exit(2)
	}
	code := m.Run()
	if pgServer != nil {
		if err := pgServer.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	os.Exit(code)
}

// openWorkspace opens a new, empty workspace in the engine under test,
// closed when the test ends.
func openWorkspace(t *testing.T) *wstore.Store {
	t.Helper()
	var ws *wstore.Store
	var err error
	if pgServer != nil {
		var url string
		if url, err = pgServer.Database(context.Background()); err == nil {
			ws, err = wstore.OpenPostgres(context.Background(), url, t.TempDir())
		}
	} else {
		ws, err = wstore.Open(t.TempDir())
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

// memoryRows counts the rows of the memory tables.
func memoryRows(t *testing.T, ws *wstore.Store) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"memory_sets", "passages", "entities", "entity_names", "relations", "contains_links", "clusters", "experiences"} {
		var n int
		if err := ws.Reader().QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[table] = n
	}
	return out
}
