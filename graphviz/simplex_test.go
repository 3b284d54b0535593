package graphviz

import "testing"

// totalLength is the weighted edge length of a ranking.
func totalLength(es []dagEdge, rank []int) int {
	sum := 0
	for _, e := range es {
		sum += e.weight * (rank[e.to] - rank[e.from])
	}
	return sum
}

func TestNetworkSimplexIsOptimal(t *testing.T) {
	for _, g := range []*Graph{randomDAG(400, 5), episodeDAG(400, 5), randomDAG(60, 9)} {
		_, ends, err := g.resolve()
		if err != nil {
			t.Fatal(err)
		}
		es, _ := acyclicEdges(ends, breakCycles(len(g.Nodes), ends))
		for _, comp := range components(len(g.Nodes), es) {
			if len(comp.nodes) < 2 {
				continue
			}
			ns := newSimplex(comp.nodes, comp.edges, es)
			ns.solve()
			for e := range ns.tail {
				if ns.slack(e) < 0 {
					t.Fatalf("%s: edge %d has negative slack", g.Name, e)
				}
			}
			// Optimality certificate: no tree edge has a negative cut
			// value, recomputed from scratch.
			ns.dfsRange(0, -1, 1)
			ns.initCutValues()
			for _, e := range ns.treeEdges {
				if ns.cut[e] < 0 {
					t.Fatalf("%s: tree edge %d has cut value %d after solving", g.Name, e, ns.cut[e])
				}
			}
		}
		lp := longestPath(len(g.Nodes), es)
		nsr := networkSimplex(len(g.Nodes), es)
		if a, b := totalLength(es, nsr), totalLength(es, lp); a > b {
			t.Fatalf("%s: simplex length %d exceeds longest path's %d", g.Name, a, b)
		}
	}
}

// TestNetworkSimplexMatchesDot compares the total edge length of our
// ranking with that of Graphviz dot, whose ranking is also optimal.
func TestNetworkSimplexMatchesDot(t *testing.T) {
	for _, g := range []*Graph{randomDAG(300, 8), episodeDAG(300, 8)} {
		pg, pl := dotPlain(t, g)
		pos, _ := pg.Index()
		dotLen := 0
		for _, e := range pg.Edges {
			dotLen += pl.Nodes[pos[e.To]].Rank - pl.Nodes[pos[e.From]].Rank
		}
		l, err := Layered(g, LayeredOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ours, _ := g.Index()
		ourLen := 0
		for _, e := range g.Edges {
			ourLen += l.Nodes[ours[e.To]].Rank - l.Nodes[ours[e.From]].Rank
		}
		if ourLen != dotLen {
			t.Errorf("%s: total edge length %d, dot's %d", g.Name, ourLen, dotLen)
		}
	}
}
