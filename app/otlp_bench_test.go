package app

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"ctxscope/engine/ingest/otlp"
	"ctxscope/engine/ingest/otlp/otlptest"
	"ctxscope/engine/store"
)

// exportCostRun is how many exports of one conversation
// BenchmarkOTLPExportCost sends, and exportCostWindow how many at each
// end it compares.
const (
	exportCostRun    = 1000
	exportCostWindow = 100
)

// BenchmarkOTLPExportCost sends exportCostRun exports of one growing
// conversation through the OTLP receiver into a SQLite workspace, one
// model call and its tool run each, and compares the cost of the last
// exportCostWindow exports with the first: per export, and per kilobyte
// of export. Two shapes:
//   - messages: each call's span holds the conversation's whole history
//     (as the GenAI conventions record a call's input), so an export
//     grows with the conversation and the cost to compare is per
//     kilobyte;
//   - usage-only: content capture off, every export the same size, so
//     the cost to compare is per export.
//
// In the same run, the same first exportCostWindow exports go through
// what the receiver did before (each export appended to the spool file,
// then the file imported whole), and the benchmark reports the cost of
// its last 10 exports against the receiver's over the same 10.
func BenchmarkOTLPExportCost(b *testing.B) {
	shapes := []struct {
		name   string
		export func(conv string, turn int) []byte
	}{
		{"messages", func(conv string, turn int) []byte { return otlptest.AgentTurn(conv, turn, 1) }},
		{"usage-only", otlptest.UsageTurn},
	}
	for _, sh := range shapes {
		b.Run("shape="+sh.name, func(b *testing.B) {
			bodies := make([][]byte, exportCostRun)
			for i := range bodies {
				bodies[i] = sh.export("conv-cost", i)
			}
			for b.Loop() {
				took := receiveEach(b, bodies)
				before := reimportEach(b, bodies[:exportCostWindow])
				first, last := took[:exportCostWindow], took[exportCostRun-exportCostWindow:]
				firstKB, lastKB := kilobytes(bodies[:exportCostWindow]), kilobytes(bodies[exportCostRun-exportCostWindow:])
				b.ReportMetric(ms(sum(first))/exportCostWindow, "first-ms/export")
				b.ReportMetric(ms(sum(last))/exportCostWindow, "last-ms/export")
				b.ReportMetric(float64(sum(last))/float64(sum(first)), "last/first-per-export")
				b.ReportMetric((float64(sum(last))/lastKB)/(float64(sum(first))/firstKB), "last/first-per-KB")
				b.ReportMetric(lastKB/firstKB, "last/first-export-size")
				tail := exportCostWindow - 10
				b.ReportMetric(float64(sum(before[tail:]))/float64(sum(took[tail:exportCostWindow])), "reimport/receiver-at-90")
			}
		})
	}
}

// receiveEach sends bodies through a new workspace's receiver, one after
// another, and returns what each took.
func receiveEach(b *testing.B, bodies [][]byte) []time.Duration {
	b.Helper()
	a, err := New(Options{Workspace: b.TempDir(), Home: b.TempDir(), Log: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	took := make([]time.Duration, len(bodies))
	for i, body := range bodies {
		start := time.Now()
		if _, err := a.ReceiveOTLP(context.Background(), otlp.Traces, body, false); err != nil {
			b.Fatal(err)
		}
		took[i] = time.Since(start)
	}
	if n := a.otlp.wholeImports.Load(); n != 1 {
		b.Fatalf("the spool file was imported whole %d times, want once", n)
	}
	return took
}

// reimportEach does what the receiver did before it read exports as they
// came: split each export, append it to the spool file, and import the
// file whole; it returns what each took.
func reimportEach(b *testing.B, bodies [][]byte) []time.Duration {
	b.Helper()
	dir := b.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	sp := otlp.NewSpooler()
	path := filepath.Join(dir, "conv.otlp.jsonl")
	took := make([]time.Duration, len(bodies))
	for i, body := range bodies {
		start := time.Now()
		groups, _, err := sp.Split(otlp.Traces, body, false)
		if err != nil {
			b.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			b.Fatal(err)
		}
		f.Write(append(groups["conv-cost"], '\n'))
		f.Close()
		if _, err := st.ImportFile(context.Background(), path); err != nil {
			b.Fatal(err)
		}
		took[i] = time.Since(start)
	}
	return took
}

func sum(ds []time.Duration) time.Duration {
	var t time.Duration
	for _, d := range ds {
		t += d
	}
	return t
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func kilobytes(bodies [][]byte) float64 {
	n := 0
	for _, b := range bodies {
		n += len(b)
	}
	return float64(n) / 1024
}
