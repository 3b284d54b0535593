package serve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"ctxscope/app"
	"ctxscope/engine/ingest/otlp"
	"ctxscope/engine/ingest/otlp/otlptest"
	"ctxscope/engine/session"
	"ctxscope/engine/store"
	"ctxscope/engine/store/pgtest"
)

// BenchmarkOTLPLoad puts a bounded load on one serve over loopback:
// loadExporters exporters at once, each an agent's conversation of its
// own, each sending loadExports exports (a turn of loadCalls model calls,
// each followed by its tool run, the conversation's history growing) one
// every loadPace, over OTLP/HTTP protobuf with the per-launch token, into
// SQLite and into PostgreSQL in the same run. An exporter retries a 429
// after its Retry-After, as OTLP exporters do (serve admits two ingests
// at once). It reports the spans per second sustained, the export
// latency's median and 95th percentile (first send to accepted), the
// exports refused at least once, the process's peak RSS during the run,
// and fails unless every conversation's session holds what the same
// exports give when imported at once: nothing lost, nothing twice.
func BenchmarkOTLPLoad(b *testing.B) {
	pg, err := pgtest.Start()
	if err != nil {
		b.Fatal(err)
	}
	defer pg.Stop()
	for _, engine := range []string{"sqlite", "postgres"} {
		b.Run("engine="+engine, func(b *testing.B) {
			for b.Loop() {
				dbURL := ""
				if engine == "postgres" {
					if dbURL, err = pg.Database(context.Background()); err != nil {
						b.Fatal(err)
					}
				}
				load(b, dbURL)
			}
		})
	}
}

const (
	loadExporters = 8
	loadExports   = 25
	loadCalls     = 4
	loadPace      = 100 * time.Millisecond
)

func load(b *testing.B, dbURL string) {
	dir := b.TempDir()
	a, err := app.New(app.Options{Workspace: dir, Store: dbURL, Log: io.Discard, Home: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	s, err := New(a, fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}})
	if err != nil {
		b.Fatal(err)
	}
	serveOn(b, s, "127.0.0.1:0")
	url := base(s) + "/v1/traces"
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // the peak RSS counts from here

	var mu sync.Mutex
	var latencies []time.Duration
	var refused atomic.Int64
	exports := make([][][]byte, loadExporters)
	for e := range exports {
		for k := 0; k < loadExports; k++ {
			exports[e] = append(exports[e], otlptest.AgentTurn(fmt.Sprintf("load-%02d", e), k*loadCalls, loadCalls))
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	for e := 0; e < loadExporters; e++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			next := time.Now()
			for _, body := range exports[e] {
				time.Sleep(time.Until(next))
				next = next.Add(loadPace)
				t0, tries := time.Now(), 0
				for {
					tries++
					status, retry := postExport(b, url, s.token, body)
					if status == http.StatusOK {
						break
					}
					if status != http.StatusTooManyRequests {
						b.Errorf("export: HTTP %d", status)
						return
					}
					time.Sleep(retry)
				}
				if tries > 1 {
					refused.Add(1)
				}
				mu.Lock()
				latencies = append(latencies, time.Since(t0))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	peak := peakRSS()

	// Every conversation as the same exports give it imported at once.
	st, err := store.Open(dir) // a reader beside the server, as the CLI is
	if dbURL != "" {
		st, err = store.OpenPostgres(context.Background(), dbURL, b.TempDir())
	}
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	list, err := st.Sessions(context.Background(), 0, 1000)
	if err != nil {
		b.Fatal(err)
	}
	got := map[string]*session.Session{}
	for _, si := range list {
		sess, err := st.Load(si.Key)
		if err != nil {
			b.Fatal(err)
		}
		got[si.ID] = sess
	}
	for e := range exports {
		conv := fmt.Sprintf("load-%02d", e)
		want := importedAtOnce(b, exports[e])
		if g := got[conv]; g == nil || digest(g) != digest(want) {
			b.Fatalf("conversation %s: the session differs from its exports imported at once", conv)
		}
	}
	slices.Sort(latencies)
	spans := loadExporters * loadExports * loadCalls * 2
	b.ReportMetric(float64(spans)/elapsed.Seconds(), "spans/s")
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(latencies[len(latencies)*95/100].Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(refused.Load()), "refused")
	b.ReportMetric(float64(peak)/1024, "peak-RSS-MB")
}

// postExport sends one OTLP/protobuf export and returns the status and
// the Retry-After of a refusal.
func postExport(b *testing.B, url, token string, body []byte) (int, time.Duration) {
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set(tokenHeader, token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Error(err)
		return 0, 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	return resp.StatusCode, time.Duration(secs) * time.Second
}

// importedAtOnce is the session the exports give, read together by the
// importer.
func importedAtOnce(b *testing.B, exports [][]byte) *session.Session {
	b.Helper()
	var lines bytes.Buffer
	for _, e := range exports {
		td, err := (&ptrace.ProtoUnmarshaler{}).UnmarshalTraces(e)
		if err != nil {
			b.Fatal(err)
		}
		j, _ := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
		lines.Write(append(j, '\n'))
	}
	s, err := otlp.Importer{}.Import(&lines, "load.otlp.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// digest is what the load test compares of a session: each entry's role
// and content.
func digest(s *session.Session) string {
	var out []string
	for _, e := range s.Main().Entries {
		if e.Message != nil {
			out = append(out, contentDigest(e.Message))
		}
	}
	return strings.Join(out, "\n")
}

// peakRSS is the process's peak resident set since it was last reset, in
// KiB.
func peakRSS() int {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return n
		}
	}
	return 0
}
