package graphviz

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// benchGraphs are the DAGs both layouts are measured on.
func benchGraphs() []*Graph {
	var out []*Graph
	for _, n := range []int{100, 1000, 5000} {
		out = append(out, randomDAG(n, 42), episodeDAG(n, 42))
	}
	return out
}

// dotPlain lays g out with the Graphviz dot program and reads the result.
func dotPlain(tb testing.TB, g *Graph) (*Graph, *Layout) {
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
	out, err := exec.Command(bin, "-Tplain", file).Output()
	if err != nil {
		tb.Fatalf("dot: %v", err)
	}
	pg, pl, err := ReadPlain(bytes.NewReader(out))
	if err != nil {
		tb.Fatalf("read dot's output: %v", err)
	}
	return pg, pl
}

func BenchmarkLayered(b *testing.B) {
	for _, g := range benchGraphs() {
		for _, rk := range []Ranking{NetworkSimplex, TimeOrdered} {
			b.Run(fmt.Sprintf("%s/%v", g.Name, rk), func(b *testing.B) {
				var l *Layout
				for b.Loop() {
					l, _ = Layered(g, LayeredOptions{Ranking: rk})
				}
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
			for b.Loop() {
				pg, pl = dotPlain(b, g)
			}
			c, err := CountCrossings(pg, pl)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(c), "crossings")
		})
	}
}
