package app

import (
	"context"
	"fmt"
	"io"
	"sort"
	"testing"
	"time"

	"ctxscope/engine/ingest/otlp"
	"ctxscope/engine/ingest/otlp/otlptest"
	"ctxscope/engine/store/pgtest"
)

// benchApp opens an app on a new workspace of engine ("sqlite", or
// "postgres" on srv).
func benchApp(b *testing.B, engine string, srv *pgtest.Server) *App {
	b.Helper()
	opts := Options{Workspace: b.TempDir(), Home: b.TempDir(), Log: io.Discard}
	if engine == "postgres" {
		url, err := srv.Database(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		opts.Store = url
	}
	a, err := New(opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	return a
}

func startPostgres(b *testing.B) *pgtest.Server {
	b.Helper()
	srv, err := pgtest.Start()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Stop() })
	return srv
}

// BenchmarkReceiveOTLP ingests OTLP exports of agent turns (20 model calls
// and 20 tool runs, 40 spans, each a new conversation) through the
// receiver into the workspace, on SQLite and on PostgreSQL in the same
// run: decode, spool, import, announce. It reports spans per second.
func BenchmarkReceiveOTLP(b *testing.B) {
	const calls = 20
	srv := startPostgres(b)
	for _, engine := range []string{"sqlite", "postgres"} {
		b.Run("engine="+engine, func(b *testing.B) {
			a := benchApp(b, engine, srv)
			bodies := make([][]byte, b.N)
			for i := range bodies {
				bodies[i] = otlptest.AgentTurn(fmt.Sprintf("bench-%s-%08d", engine, i), 0, calls)
			}
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				if n, err := a.ReceiveOTLP(context.Background(), otlp.Traces, bodies[i], false); err != nil || n != 2*calls {
					b.Fatal(n, err)
				}
			}
			b.ReportMetric(float64(2*calls*b.N)/time.Since(start).Seconds(), "spans/s")
		})
	}
}

// BenchmarkSearchTwoServers imports sessions through one app and searches
// through another on the same PostgreSQL database, as two servers of a
// team do, and reports the search latency's median and 95th percentile.
// The first search, which indexes everything the first app imported, is
// made before the timer starts; each timed search still asks the store
// what changed since.
func BenchmarkSearchTwoServers(b *testing.B) {
	srv := startPostgres(b)
	url, err := srv.Database(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	open := func() *App {
		a, err := New(Options{Workspace: b.TempDir(), Home: b.TempDir(), Log: io.Discard, Store: url})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { a.Close() })
		return a
	}
	one, two := open(), open()
	if _, errs := one.ws.Import(context.Background(), []string{"../testdata/shared/sessions/claude-code"}); len(errs) > 0 {
		b.Fatal(errs)
	}
	queries := []string{"orchestrator", "test", "session", "error", "file", "function", "import", "viewer"}
	if _, err := two.debugger.Search(context.Background(), queries[0], "", 20); err != nil {
		b.Fatal(err)
	}
	var took []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := time.Now()
		if _, err := two.debugger.Search(context.Background(), queries[i%len(queries)], "", 20); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(t))
	}
	b.StopTimer()
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
}
