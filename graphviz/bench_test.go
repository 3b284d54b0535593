package graphviz

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"ctxscope/engine/cputime"
)

// benchGraphs are the DAGs both layouts are measured on.
func benchGraphs() []*Graph {
	var out []*Graph
	for _, n := range []int{100, 1000, 5000} {
		out = append(out, randomDAG(n, 42), episodeDAG(n, 42))
	}
	return out
}

// cpuMeter reports the CPU time per operation of a benchmark as
// "cpu-ms/op", next to its wall time.
type cpuMeter struct {
	start time.Duration
	extra time.Duration // CPU time of child processes
	ok    bool
}

func startCPU() *cpuMeter {
	t, ok := cputime.Process()
	return &cpuMeter{start: t, ok: ok}
}

func (m *cpuMeter) report(b *testing.B) {
	end, ok := cputime.Process()
	if !ok || !m.ok {
		return
	}
	b.ReportMetric(float64(end-m.start+m.extra)/float64(b.N)/1e6, "cpu-ms/op")
}

// dotPlain lays g out with the Graphviz dot program and reads the result.
func dotPlain(tb testing.TB, g *Graph) (*Graph, *Layout) {
	pg, pl, _ := dotPlainCPU(tb, g)
	return pg, pl
}

// dotPlainCPU is dotPlain that also returns the CPU time dot used.
func dotPlainCPU(tb testing.TB, g *Graph) (*Graph, *Layout, time.Duration) {
	tb.Helper()
	bin, err := exec.LookPath("dot")
	if err != nil {
		tb.Skip("Graphviz dot is not installed")
	}
	file := filepath.Join(tb.TempDir(), "g.dot")
	var buf bytes.Buffer
	if err := WriteDOT(&buf, g, DOTOptions{}); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, "-Tplain", file)
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("dot: %v", err)
	}
	pg, pl, err := ReadPlain(bytes.NewReader(out))
	if err != nil {
		tb.Fatalf("read dot's output: %v", err)
	}
	return pg, pl, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func BenchmarkLayered(b *testing.B) {
	for _, g := range benchGraphs() {
		for _, rk := range []Ranking{NetworkSimplex, TimeOrdered} {
			b.Run(fmt.Sprintf("%s/%v", g.Name, rk), func(b *testing.B) {
				var l *Layout
				cpu := startCPU()
				for b.Loop() {
					l, _ = Layered(g, LayeredOptions{Ranking: rk})
				}
				cpu.report(b)
				c, err := CountCrossings(g, l)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(c), "crossings")
			})
		}
	}
}

func BenchmarkDot(b *testing.B) {
	for _, g := range benchGraphs() {
		b.Run(g.Name, func(b *testing.B) {
			var pg *Graph
			var pl *Layout
			cpu := startCPU()
			for b.Loop() {
				var used time.Duration
				pg, pl, used = dotPlainCPU(b, g)
				cpu.extra += used
			}
			cpu.report(b)
			c, err := CountCrossings(pg, pl)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(c), "crossings")
		})
	}
}
