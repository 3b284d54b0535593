package graphviz

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// checkLayered asserts the invariants of a layered layout of g.
func checkLayered(t *testing.T, g *Graph, l *Layout) {
	t.Helper()
	if len(l.Nodes) != len(g.Nodes) || len(l.Edges) != len(g.Edges) {
		t.Fatalf("layout has %d nodes, %d edges; graph %d, %d", len(l.Nodes), len(l.Edges), len(g.Nodes), len(g.Edges))
	}
	if ov := l.Overlapping(); len(ov) > 0 {
		a, b := ov[0][0], ov[0][1]
		t.Fatalf("%d overlapping pairs, first %s %+v and %s %+v", len(ov), g.Nodes[a].ID, l.Nodes[a], g.Nodes[b].ID, l.Nodes[b])
	}
	pos, _ := g.Index()
	for i, e := range g.Edges {
		u, v := l.Nodes[pos[e.From]], l.Nodes[pos[e.To]]
		r := l.Edges[i]
		switch {
		case e.From == e.To:
		case r.Reversed && u.Rank <= v.Rank:
			t.Fatalf("reversed edge %s->%s runs from rank %d to %d", e.From, e.To, u.Rank, v.Rank)
		case !r.Reversed && u.Rank >= v.Rank:
			t.Fatalf("edge %s->%s runs from rank %d to %d", e.From, e.To, u.Rank, v.Rank)
		}
		if len(r.Points) < 2 {
			t.Fatalf("edge %s->%s has %d route points", e.From, e.To, len(r.Points))
		}
	}
	for i := range l.Nodes {
		for j := range l.Nodes {
			a, b := l.Nodes[i], l.Nodes[j]
			if a.Rank < b.Rank && a.Y >= b.Y {
				t.Fatalf("rank %d at y=%g is not above rank %d at y=%g", a.Rank, a.Y, b.Rank, b.Y)
			}
		}
		if i > 200 {
			break
		}
	}
}

func TestLayeredInvariants(t *testing.T) {
	cyclic := &Graph{Nodes: []Node{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d", Label: "a much longer label than the rest"}},
		Edges: []Edge{{From: "a", To: "b"}, {From: "b", To: "c"}, {From: "c", To: "a"}, {From: "c", To: "c"}, {From: "a", To: "d"}, {From: "a", To: "b"}}}
	tests := []struct {
		name string
		g    *Graph
	}{
		{"empty", &Graph{}},
		{"single", &Graph{Nodes: []Node{{ID: "x"}}}},
		{"cyclic with loop and multi-edge", cyclic},
		{"random 300", randomDAG(300, 1)},
		{"episodes 300", episodeDAG(300, 1)},
	}
	for _, tc := range tests {
		for _, rk := range []Ranking{NetworkSimplex, LongestPath, TimeOrdered} {
			for _, splines := range []bool{false, true} {
				l, err := Layered(tc.g, LayeredOptions{Ranking: rk, Splines: splines})
				if err != nil {
					t.Fatalf("%s/%v: %v", tc.name, rk, err)
				}
				checkLayered(t, tc.g, l)
				again, _ := Layered(tc.g, LayeredOptions{Ranking: rk, Splines: splines})
				if !reflect.DeepEqual(l, again) {
					t.Fatalf("%s/%v: two runs differ", tc.name, rk)
				}
			}
		}
	}
}

func TestLayeredAcyclicHasNoReversedEdges(t *testing.T) {
	g := episodeDAG(500, 3)
	l, err := Layered(g, LayeredOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range l.Edges {
		if r.Reversed {
			t.Fatalf("edge %d of a DAG was reversed", i)
		}
	}
}

func TestLayeredRejectsBadGraphs(t *testing.T) {
	tests := []struct {
		name string
		g    *Graph
		want error
	}{
		{"empty id", &Graph{Nodes: []Node{{ID: ""}}}, ErrEmptyID},
		{"duplicate", &Graph{Nodes: []Node{{ID: "a"}, {ID: "a"}}}, ErrDuplicateNode},
		{"unknown", &Graph{Nodes: []Node{{ID: "a"}}, Edges: []Edge{{From: "a", To: "b"}}}, ErrUnknownNode},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Layered(tc.g, LayeredOptions{}); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestTimeOrderedRanksFollowSeq(t *testing.T) {
	g := episodeDAG(400, 7)
	l, err := Layered(g, LayeredOptions{Ranking: TimeOrdered})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(g.Nodes); i++ {
		if l.Nodes[i].Rank < l.Nodes[i-1].Rank {
			t.Fatalf("%s (seq %d) ranks above %s (seq %d)", g.Nodes[i].ID, g.Nodes[i].Seq, g.Nodes[i-1].ID, g.Nodes[i-1].Seq)
		}
	}
}

// TestLayeredRandomDigraphs checks the invariants on many small random
// directed graphs with cycles, self-loops, multi-edges and long labels.
func TestLayeredRandomDigraphs(t *testing.T) {
	r := rand.New(rand.NewPCG(99, 1))
	for k := 0; k < 300; k++ {
		n := 1 + r.IntN(30)
		g := &Graph{}
		for i := 0; i < n; i++ {
			g.Nodes = append(g.Nodes, Node{ID: fmt.Sprint(i), Label: strings.Repeat("w", r.IntN(20)), Seq: int64(r.IntN(10))})
		}
		for m := r.IntN(3 * n); m > 0; m-- {
			g.Edges = append(g.Edges, Edge{From: fmt.Sprint(r.IntN(n)), To: fmt.Sprint(r.IntN(n))})
		}
		for _, rk := range []Ranking{NetworkSimplex, LongestPath, TimeOrdered} {
			l, err := Layered(g, LayeredOptions{Ranking: rk})
			if err != nil {
				t.Fatal(err)
			}
			checkLayered(t, g, l)
		}
	}
}

func TestLayeredRefusesHugeLayouts(t *testing.T) {
	// A chain of 3,000 nodes plus an edge from every chain node to the last
	// one needs about 4.5 million virtual nodes.
	g := &Graph{}
	const n = 3000
	for i := 0; i < n; i++ {
		g.Nodes = append(g.Nodes, Node{ID: fmt.Sprint(i)})
		if i > 0 {
			g.Edges = append(g.Edges, Edge{From: fmt.Sprint(i - 1), To: fmt.Sprint(i)})
		}
	}
	for i := 0; i < n-2; i++ {
		g.Edges = append(g.Edges, Edge{From: fmt.Sprint(i), To: fmt.Sprint(n - 1)})
	}
	if _, err := Layered(g, LayeredOptions{}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
}
