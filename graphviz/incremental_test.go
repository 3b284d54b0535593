package graphviz

import (
	"errors"
	"strconv"
	"testing"
)

func TestIncrementalKeepsExistingPositions(t *testing.T) {
	for _, rk := range []Ranking{NetworkSimplex, LongestPath, TimeOrdered} {
		full := episodeDAG(400, 11)
		first := &Graph{Nodes: full.Nodes[:100]}
		known := map[string]bool{}
		for _, n := range first.Nodes {
			known[n.ID] = true
		}
		var pending []Edge
		for _, e := range full.Edges {
			if known[e.From] && known[e.To] {
				first.Edges = append(first.Edges, e)
			} else {
				pending = append(pending, e)
			}
		}
		inc, err := NewIncremental(first, LayeredOptions{Ranking: rk})
		if err != nil {
			t.Fatal(err)
		}
		for lo := 100; lo < len(full.Nodes); lo += 37 {
			hi := min(lo+37, len(full.Nodes))
			batch := full.Nodes[lo:hi]
			for _, n := range batch {
				known[n.ID] = true
			}
			var edges, rest []Edge
			for _, e := range pending {
				if known[e.From] && known[e.To] {
					edges = append(edges, e)
				} else {
					rest = append(rest, e)
				}
			}
			pending = rest
			before := append([]Box(nil), inc.Layout().Nodes...)
			beforeRoutes := len(inc.Layout().Edges)
			if err := inc.Append(batch, edges); err != nil {
				t.Fatal(err)
			}
			for i, b := range before {
				if inc.Layout().Nodes[i] != b {
					t.Fatalf("%v: node %s moved from %+v to %+v", rk, inc.Graph().Nodes[i].ID, b, inc.Layout().Nodes[i])
				}
			}
			if len(inc.Layout().Edges) != beforeRoutes+len(edges) {
				t.Fatalf("%v: %d routes after adding %d edges to %d", rk, len(inc.Layout().Edges), len(edges), beforeRoutes)
			}
			checkLayered(t, inc.Graph(), inc.Layout())
		}
		if err := inc.Relayout(); err != nil {
			t.Fatal(err)
		}
		checkLayered(t, inc.Graph(), inc.Layout())
	}
}

func TestIncrementalTimeOrderedAppendsBelow(t *testing.T) {
	inc, err := NewIncremental(&Graph{Nodes: []Node{{ID: "e1", Seq: 1}, {ID: "a1", Seq: 2}}, Edges: []Edge{{From: "e1", To: "a1"}}}, LayeredOptions{Ranking: TimeOrdered})
	if err != nil {
		t.Fatal(err)
	}
	if err := inc.Append([]Node{{ID: "e2", Seq: 3}}, nil); err != nil {
		t.Fatal(err)
	}
	l := inc.Layout()
	if l.Nodes[2].Rank < l.Nodes[1].Rank {
		t.Fatalf("later episode e2 on rank %d above a1 on rank %d", l.Nodes[2].Rank, l.Nodes[1].Rank)
	}
	checkLayered(t, inc.Graph(), l)
}

func TestIncrementalUpwardEdgeIsReversed(t *testing.T) {
	inc, err := NewIncremental(&Graph{Nodes: []Node{{ID: "a"}, {ID: "b"}}, Edges: []Edge{{From: "a", To: "b"}}}, LayeredOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := inc.Append([]Node{{ID: "c"}}, []Edge{{From: "b", To: "c"}, {From: "c", To: "a"}}); err != nil {
		t.Fatal(err)
	}
	if r := inc.Layout().Edges[2]; !r.Reversed {
		t.Fatalf("edge c->a pointing up is not marked reversed")
	}
	checkLayered(t, inc.Graph(), inc.Layout())
}

func TestIncrementalRejectsBadAppend(t *testing.T) {
	inc, err := NewIncremental(&Graph{Nodes: []Node{{ID: "a"}}}, LayeredOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		nodes []Node
		edges []Edge
		want  error
	}{
		{"repeated id", []Node{{ID: "a"}}, nil, ErrDuplicateNode},
		{"unknown endpoint", []Node{{ID: "b"}}, []Edge{{From: "b", To: "zz"}}, ErrUnknownNode},
	}
	for _, tc := range tests {
		if err := inc.Append(tc.nodes, tc.edges); !errors.Is(err, tc.want) {
			t.Fatalf("%s: got %v, want %v", tc.name, err, tc.want)
		}
		if len(inc.Graph().Nodes) != 1 || len(inc.Layout().Nodes) != 1 {
			t.Fatalf("%s: failed append changed the graph", tc.name)
		}
	}
}

// BenchmarkIncrementalAppend measures one live-tail step: appending an
// episode that depends on a recent one to a laid-out 5,000-episode DAG.
func BenchmarkIncrementalAppend(b *testing.B) {
	inc, err := NewIncremental(episodeDAG(5000, 42), LayeredOptions{Ranking: TimeOrdered})
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	cpu := startCPU()
	for b.Loop() {
		g := inc.Graph()
		dep := g.Nodes[len(g.Nodes)-1-i%7].ID
		id := "live" + strconv.Itoa(i)
		if err := inc.Append([]Node{{ID: id, Seq: int64(len(g.Nodes))}}, []Edge{{From: dep, To: id}}); err != nil {
			b.Fatal(err)
		}
		i++
	}
	cpu.report(b)
}
