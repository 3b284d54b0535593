package graphviz

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadPlainFromDot(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "episodes_v10.plain"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, l, err := ReadPlain(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != 5 || len(g.Edges) != 2 {
		t.Fatalf("read %d nodes and %d edges, want 5 and 2", len(g.Nodes), len(g.Edges))
	}
	pos, _ := g.Index()
	for _, e := range g.Edges {
		if a, b := l.Nodes[pos[e.From]], l.Nodes[pos[e.To]]; a.Rank >= b.Rank || a.Y >= b.Y {
			t.Fatalf("dot's edge %s->%s does not point down: %+v %+v", e.From, e.To, a, b)
		}
	}
	for i, r := range l.Edges {
		if !r.Spline || len(r.Points)%3 != 1 {
			t.Fatalf("edge %d: %d points, spline %v", i, len(r.Points), r.Spline)
		}
	}
	if l.Width <= 0 || l.Height <= 0 {
		t.Fatalf("size %gx%g", l.Width, l.Height)
	}
}

func TestReadPlainErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
		is             error
	}{
		{"empty", "", "no graph record", nil},
		{"node first", "node a 1 1 1 1 a solid box black white\n", "line 1: node before the graph record", nil},
		{"bad number", "graph 1 2 x\n", "line 1: field 4: bad number", nil},
		{"short node", "graph 1 2 2\nnode a 1\n", "line 2: node record has 3 fields", nil},
		{"unknown record", "graph 1 2 2\n\nnodes a\n", "line 3: unknown record", nil},
		{"unknown node", "graph 1 2 2\nedge a b 0 solid black\n", "line 2: edge", ErrUnknownNode},
		{"duplicate", "graph 1 2 2\nnode a 1 1 1 1 a s b c d\nnode a 1 1 1 1 a s b c d\n", "line 3", ErrDuplicateNode},
		{"bad count", "graph 1 2 2\nnode a 1 1 1 1 a s b c d\nedge a a 9 1 1 solid black\n", "line 3: edge", nil},
		{"unterminated", "graph 1 2 2\nnode \"a 1 1", "line 2: unterminated", nil},
		{"infinite", "graph 1 2 Inf\n", "bad number", nil},
		{"quoted newline counts lines", "graph 1 2 2\nnode \"a\nb\" 1 1 1 1 x s b c d\nbogus\n", "line 4: unknown record", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ReadPlain(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("got %v, want %v", err, tc.is)
			}
		})
	}
}

func TestPlainRoundTrip(t *testing.T) {
	g := nastyGraph()
	l, err := Layered(g, LayeredOptions{Splines: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WritePlain(&buf, g, l); err != nil {
		t.Fatal(err)
	}
	g2, l2, err := ReadPlain(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.Nodes {
		if g2.Nodes[i].ID != g.Nodes[i].ID {
			t.Fatalf("node %d: id %q, want %q", i, g2.Nodes[i].ID, g.Nodes[i].ID)
		}
		a, b := l.Nodes[i], l2.Nodes[i]
		if math.Abs(a.X-b.X) > 0.01 || math.Abs(a.Y-b.Y) > 0.01 || a.Rank != b.Rank {
			t.Fatalf("node %d: %+v read back as %+v", i, a, b)
		}
	}
}

// FuzzReadPlain checks that any input is read or rejected without a
// panic, and that whatever is read writes out and reads back to the same
// text.
func FuzzReadPlain(f *testing.F) {
	for _, name := range []string{"episodes_v10.plain", "ego_necklace.plain"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("graph 1 1 1\nnode \"a \\\" b\" 0.5 0.5 0.1 0.1 \"x\\\\\" s b c d\nedge \"a \\\" b\" \"a \\\" b\" 4 0 0 1 1 2 2 3 3 lbl 1 1 solid black\nstop\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		g, l, err := ReadPlain(bytes.NewReader(in))
		if err != nil {
			return
		}
		var once, twice bytes.Buffer
		if err := WritePlain(&once, g, l); err != nil {
			t.Fatal(err)
		}
		g2, l2, err := ReadPlain(bytes.NewReader(once.Bytes()))
		if err != nil {
			t.Fatalf("written plain does not read back: %v\n%s", err, once.String())
		}
		if err := WritePlain(&twice, g2, l2); err != nil {
			t.Fatal(err)
		}
		g3, l3, err := ReadPlain(bytes.NewReader(twice.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		var thrice bytes.Buffer
		if err := WritePlain(&thrice, g3, l3); err != nil {
			t.Fatal(err)
		}
		if twice.String() != thrice.String() {
			t.Fatalf("plain output is not stable:\n%s", firstDiff(twice.String(), thrice.String()))
		}
	})
}
