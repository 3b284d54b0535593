package graphviz

import (
	"errors"
	"fmt"
)

// LayeredOptions tune [Layered]. The zero value is a sensible default.
type LayeredOptions struct {
	// Ranking assigns nodes to layers; NetworkSimplex by default.
	Ranking Ranking
	// NodeSep is the least horizontal gap between two nodes, 18 points
	// when zero (Graphviz's 0.25 inch). Long edges keep half of it.
	NodeSep float64
	// RankSep is the vertical gap between ranks, 36 points when zero
	// (Graphviz's 0.5 inch).
	RankSep float64
	// Sizing sets node sizes from labels.
	Sizing Sizing
	// Splines routes edges as cubic Bézier curves instead of polylines.
	Splines bool
	// Sweeps bounds the median sweeps of crossing reduction, 24 when zero.
	Sweeps int
}

func (o LayeredOptions) withDefaults() LayeredOptions {
	if o.NodeSep <= 0 {
		o.NodeSep = 18
	}
	if o.RankSep <= 0 {
		o.RankSep = 36
	}
	if o.Sweeps <= 0 {
		o.Sweeps = 24
	}
	o.Sizing = o.Sizing.withDefaults()
	return o
}

// Layered lays g out top to bottom in ranks (a Sugiyama layout). Edges
// that close cycles are reversed for ranking and drawn against it; after
// that every edge's To node sits on a lower rank than its From node.
// Self-loops are drawn as small loops beside their node. Nodes never
// overlap. The result depends only on g and opt. It fails when g has an
// empty or repeated node ID or an edge to an unknown node.
func Layered(g *Graph, opt LayeredOptions) (*Layout, error) {
	_, ends, err := g.resolve()
	if err != nil {
		return nil, err
	}
	l, _, err := layered(g, ends, opt.withDefaults())
	return l, err
}

// MaxVirtualNodes bounds the virtual nodes a layered layout may create
// for edges spanning several ranks (about 100 bytes each), so that a
// hostile graph cannot exhaust memory.
const MaxVirtualNodes = 4 << 20

// ErrTooLarge is returned by [Layered] when the layout would need more
// than [MaxVirtualNodes] virtual nodes.
var ErrTooLarge = errors.New("graphviz: graph too large for a layered layout")

// layered runs the whole pipeline and also returns the layered graph, so
// that incremental layout can keep track of ranks.
func layered(g *Graph, ends [][2]int, opt LayeredOptions) (*Layout, *lgraph, error) {
	n := len(g.Nodes)
	w, h := make([]float64, n), make([]float64, n)
	seq := make([]int64, n)
	for i := range g.Nodes {
		w[i], h[i] = opt.Sizing.Size(g.Nodes[i].text())
		seq[i] = g.Nodes[i].Seq
	}
	dir := breakCycles(n, ends)
	es, of := acyclicEdges(ends, dir)
	ranks := assignRanks(n, es, seq, opt.Ranking)
	if v := virtualCount(ranks, es); v > MaxVirtualNodes {
		return nil, nil, fmt.Errorf("%w: %d edges would need %d virtual nodes (limit %d)", ErrTooLarge, len(es), v, MaxVirtualNodes)
	}
	lg := newLGraph(ranks, es, w, h)
	lg.orderComponents(orderLimits{sweeps: opt.Sweeps, stall: 6, passes: 8})
	xs := lg.positionX(spacing{node: opt.NodeSep, edge: opt.NodeSep / 2})
	ys := lg.positionY(opt.RankSep)

	l := &Layout{Nodes: make([]Box, n), Edges: make([]Route, len(ends))}
	for v := 0; v < n; v++ {
		l.Nodes[v] = Box{X: xs[v], Y: ys[v], W: w[v], H: h[v], Rank: lg.rank[v], Order: lg.pos[v]}
	}
	for i := range ends {
		if dir[i] == dirLoop {
			l.Edges[i] = loopRoute(l.Nodes[ends[i][0]])
			continue
		}
		l.Edges[i] = chainRoute(lg.chains[of[i]], xs, ys, lg.height, dir[i] == dirReversed)
	}
	if opt.Splines {
		for i := range l.Edges {
			l.Edges[i] = l.Edges[i].smooth()
		}
	}
	l.fit()
	return l, lg, nil
}

// virtualCount is the number of virtual nodes the ranked edges need.
func virtualCount(rank []int, es []dagEdge) int {
	v := 0
	for _, e := range es {
		v += rank[e.to] - rank[e.from] - 1
	}
	return v
}

// positionY centres every vertex on its rank's line; each rank is as tall
// as its tallest node and ranks are rankSep apart.
func (g *lgraph) positionY(rankSep float64) []float64 {
	tall := make([]float64, len(g.layers))
	for v, r := range g.rank {
		tall[r] = max(tall[r], g.height[v])
	}
	mid := make([]float64, len(g.layers))
	top := 0.0
	for r := range tall {
		mid[r] = top + tall[r]/2
		top += tall[r] + rankSep
	}
	ys := make([]float64, len(g.rank))
	for v, r := range g.rank {
		ys[v] = mid[r]
	}
	return ys
}
