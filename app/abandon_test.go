// The CPU a cancelled call spends is measured without the race detector,
// whose instrumentation multiplies it (test-go runs this file without it).

//go:build !race

package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/cputime"
	"ctxscope/engine/debug"
)

// repeatedPiSession writes the real pi session before its compaction,
// its messages copies times over, and returns the file's path: the
// paper-scale session of the benchmarks is 27 copies.
func repeatedPiSession(t testing.TB, copies int) string {
	t.Helper()
	raw, err := os.ReadFile("../testdata/shared/sessions/pi/pi-cwl__before-compaction.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimRight(string(raw), "\n")+"\n", "\n")
	var sb strings.Builder
	sb.WriteString(lines[0])
	for range copies {
		for _, l := range lines[1:] {
			sb.WriteString(l)
		}
	}
	path := filepath.Join(t.TempDir(), "repeated.jsonl")
	if err := os.WriteFile(path, []byte(sb.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// openIndexed is a new app with the session at path imported and its
// text indexed for search: the background indexer, which would index it
// once the page is quiet, has nothing left to do.
func openIndexed(t testing.TB, path string) *App {
	t.Helper()
	a := newApp(t, Options{})
	if _, err := a.sessions.OpenPath(context.Background(), path); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ws.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	return a
}

// abandonAfter calls the debugger's Memory under a context cancelled after
// wait, and returns the CPU time the process spent in the 500 ms that
// start 100 ms after the cancellation: a call whose work stopped within
// 100 ms of its caller leaving leaves next to none. (The call itself
// returns at once; the work it started runs on its own, shared with
// other callers, until it looks at its context.)
func abandonAfter(t testing.TB, a *App, key string, p debug.Params, wait time.Duration) (time.Duration, error) {
	ctx, cancel := context.WithCancel(context.Background())
	cancelled := make(chan time.Time, 1)
	timer := time.AfterFunc(wait, func() { cancelled <- time.Now(); cancel() })
	defer timer.Stop()
	_, err := a.debugger.Memory(ctx, key, p)
	if err == nil {
		return 0, nil
	}
	at := <-cancelled
	time.Sleep(time.Until(at.Add(100 * time.Millisecond)))
	runtime.GC() // the garbage of the work done is not work that runs on
	before, ok := cputime.Process()
	if !ok {
		t.Fatal("this system does not tell the process's CPU time")
	}
	time.Sleep(500 * time.Millisecond)
	after, _ := cputime.Process()
	return after - before, err
}

// TestAbandonedMemoryStopsAndResumes abandons the debugger's session
// memory of a long session at several points of its work (reading the
// session, indexing its passages, evaluating recall at its look-backs):
// each call returns soon after its caller leaves, and the next call
// takes up what the abandoned ones read, giving what one uninterrupted
// call gives.
func TestAbandonedMemoryStopsAndResumes(t *testing.T) {
	path := repeatedPiSession(t, 4)
	p := debug.Params{Policy: "paper", Budget: 20000}
	a := openIndexed(t, path)
	info, err := a.sessions.OpenPath(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	for _, wait := range []time.Duration{20 * time.Millisecond, 200 * time.Millisecond, 600 * time.Millisecond, 1500 * time.Millisecond, 2800 * time.Millisecond} {
		ranOn, err := abandonAfter(t, a, info.Key, p, wait)
		if err == nil {
			continue // the work was done before the caller left
		}
		if !strings.Contains(err.Error(), "context canceled") {
			t.Fatalf("abandoned after %v: %v", wait, err)
		}
		// Work that runs on would spend most of the 500 ms on a core.
		if ranOn > 150*time.Millisecond {
			t.Errorf("abandoned after %v: %v of CPU in the 500 ms from 100 ms after", wait, ranOn)
		}
		t.Logf("abandoned after %v: %v of CPU in the 500 ms from 100 ms after", wait, ranOn)
	}
	resumed, err := a.debugger.Memory(context.Background(), info.Key, p)
	if err != nil {
		t.Fatal(err)
	}
	b := newApp(t, Options{})
	infoB, err := b.sessions.OpenPath(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := b.debugger.Memory(context.Background(), infoB.Key, p)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(resumed)
	want, _ := json.Marshal(whole)
	if string(got) != strings.ReplaceAll(string(want), infoB.Key, info.Key) {
		t.Errorf("the memory after abandoned calls (%d bytes) differs from an uninterrupted one (%d bytes)", len(got), len(want))
	}
}

// BenchmarkAbandonedMemory reports the CPU the debugger's session memory
// of a long session (8 copies of the pi session) spends from 100 ms to
// 600 ms after its caller leaves 300 ms into it (ran-on-cpu-ms; work that
// stopped within 100 ms spends next to none).
func BenchmarkAbandonedMemory(b *testing.B) {
	path := repeatedPiSession(b, 8)
	p := debug.Params{Policy: "paper", Budget: 20000}
	var worst time.Duration
	for b.Loop() {
		b.StopTimer()
		a := openIndexed(b, path)
		info, err := a.sessions.OpenPath(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		after, _ := abandonAfter(b, a, info.Key, p, 300*time.Millisecond)
		worst = max(worst, after)
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "ran-on-cpu-ms")
}
