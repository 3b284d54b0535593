package graphviz

import (
	"fmt"
	"math/rand/v2"
)

// randomDAG generates a DAG of n nodes in which every node but the first
// has one to three parents drawn from the 40 nodes before it.
func randomDAG(n int, seed uint64) *Graph {
	r := rand.New(rand.NewPCG(seed, 1))
	g := &Graph{Name: fmt.Sprintf("random%d", n)}
	for i := 0; i < n; i++ {
		g.Nodes = append(g.Nodes, Node{ID: fmt.Sprintf("n%d", i), Seq: int64(i)})
		if i == 0 {
			continue
		}
		seen := map[int]bool{}
		for k := 1 + r.IntN(3); k > 0; k-- {
			p := max(0, i-1-r.IntN(min(i, 40)))
			if !seen[p] {
				seen[p] = true
				g.Edges = append(g.Edges, Edge{From: fmt.Sprintf("n%d", p), To: fmt.Sprintf("n%d", i)})
			}
		}
	}
	return g
}

// episodeDAG generates a session-shaped episode DAG of n episodes in start
// order: bursts of one to three explorations, each followed by an action
// that depends on some of the burst and now and then on an older
// exploration, as CWL delimiter dependencies do.
func episodeDAG(n int, seed uint64) *Graph {
	r := rand.New(rand.NewPCG(seed, 2))
	g := &Graph{Name: fmt.Sprintf("episodes%d", n)}
	var expls []string
	for len(g.Nodes) < n {
		burst := 1 + r.IntN(3)
		start := len(expls)
		for b := 0; b < burst && len(g.Nodes) < n; b++ {
			id := fmt.Sprintf("e%d", len(g.Nodes))
			g.Nodes = append(g.Nodes, Node{ID: id, Seq: int64(len(g.Nodes)), Attrs: Attrs{"kind": "expl", "state": "closed"}})
			expls = append(expls, id)
		}
		if len(g.Nodes) == n {
			break
		}
		id := fmt.Sprintf("a%d", len(g.Nodes))
		g.Nodes = append(g.Nodes, Node{ID: id, Seq: int64(len(g.Nodes)), Attrs: Attrs{"kind": "act", "state": "closed"}})
		deps := map[string]bool{}
		for _, e := range expls[start:] {
			if r.IntN(4) > 0 {
				deps[e] = true
			}
		}
		if r.IntN(5) == 0 && start > 0 {
			deps[expls[max(0, start-1-r.IntN(min(start, 15)))]] = true
		}
		for _, e := range expls[max(0, start-20):] {
			if deps[e] {
				g.Edges = append(g.Edges, Edge{From: e, To: id})
			}
		}
	}
	return g
}
