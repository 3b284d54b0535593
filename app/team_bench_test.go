package app

import (
	"context"
	"fmt"
	"io"
	"sort"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"ctxscope/engine/ingest/otlp"
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

// agentExport is an OTLP export of one agent turn of a conversation: calls
// model calls with growing input, each followed by a tool run.
func agentExport(b *testing.B, conv string, calls int) []byte {
	b.Helper()
	td := ptrace.NewTraces()
	ss := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
	var trace pcommon.TraceID
	copy(trace[:], conv)
	history := `{"role":"user","parts":[{"type":"text","content":"Fix the failing test in pager.go and run the suite."}]}`
	t0 := time.Now()
	for i := 0; i < calls; i++ {
		call := fmt.Sprintf(`{"role":"assistant","parts":[{"type":"tool_call","id":"c%d","name":"bash","arguments":{"command":"go test ./pager/... -run TestPage%d"}}]}`, i, i)
		s := ss.Spans().AppendEmpty()
		s.SetTraceID(trace)
		s.SetSpanID(pcommon.SpanID{byte(i), 1})
		s.SetName("chat model")
		s.SetStartTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(2*i) * time.Second)))
		s.SetEndTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(2*i+1) * time.Second)))
		a := s.Attributes()
		a.PutStr("gen_ai.operation.name", "chat")
		a.PutStr("gen_ai.conversation.id", conv)
		a.PutStr("gen_ai.input.messages", "["+history+"]")
		a.PutStr("gen_ai.output.messages", "["+call+"]")
		a.PutInt("gen_ai.usage.input_tokens", int64(1000+400*i))
		a.PutInt("gen_ai.usage.output_tokens", 60)
		result := fmt.Sprintf(`{"role":"tool","parts":[{"type":"tool_call_response","id":"c%d","response":"--- FAIL: TestPage%d (0.00s)\n    pager_test.go:%d: got 3 pages, want 4\nFAIL\nFAIL\tpager\t0.012s"}]}`, i, i, 40+i)
		history += "," + call + "," + result
		t := ss.Spans().AppendEmpty()
		t.SetTraceID(trace)
		t.SetSpanID(pcommon.SpanID{byte(i), 2})
		t.SetName("execute_tool bash")
		t.SetStartTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(2*i+1) * time.Second)))
		t.SetEndTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(2*i+2) * time.Second)))
		t.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
		t.Attributes().PutStr("gen_ai.tool.call.id", fmt.Sprintf("c%d", i))
		t.Attributes().PutStr("gen_ai.conversation.id", conv)
	}
	body, err := (&ptrace.ProtoMarshaler{}).MarshalTraces(td)
	if err != nil {
		b.Fatal(err)
	}
	return body
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
				bodies[i] = agentExport(b, fmt.Sprintf("bench-%s-%08d", engine, i), calls)
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
	if _, errs := one.ws.Import(context.Background(), []string{"../../shared/data/sessions/claude-code"}); len(errs) > 0 {
		b.Fatal(errs)
	}
	queries := []string{"orchestrator", "test", "session", "error", "file", "function", "import", "viewer"}
	if _, err := two.debugger.Search(queries[0], "", 20); err != nil {
		b.Fatal(err)
	}
	var took []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := time.Now()
		if _, err := two.debugger.Search(queries[i%len(queries)], "", 20); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(t))
	}
	b.StopTimer()
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
}
