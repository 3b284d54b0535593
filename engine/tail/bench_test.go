package tail

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// BenchmarkWatcherLatency measures the time from the write of a record to
// the arrival of its entry event, with the backstop poll turned off so
// that delivery rests on file-system events. Each iteration appends one
// record and waits for it; ns/op is the mean latency, and p50/p99 are
// reported too. The UI's budget from write to screen is 250 ms.
func BenchmarkWatcherLatency(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, []byte(header("s")), 0o644); err != nil {
		b.Fatal(err)
	}
	w, err := New(Options{Poll: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(path); err != nil {
		b.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	for ev := range w.Events() { // the header
		if ev.Kind == EventOpened {
			break
		}
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 1; i <= b.N; i++ {
		start := time.Now()
		if _, err := f.WriteString(record(i)); err != nil {
			b.Fatal(err)
		}
		for ev := range w.Events() {
			if ev.Kind == EventEntry {
				break
			}
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
