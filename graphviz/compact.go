package graphviz

import (
	"math"
	"sort"
)

// blockEdge says that block to must sit at least gap right of block from.
type blockEdge struct {
	from, to int
	gap      float64
}

// compact places the blocks of an alignment as far left as their
// separation allows, then pulls each block right towards its successors
// where that shortens nothing, and gives every vertex its block's x.
func (g *lgraph) compact(sp spacing, layers [][]int, root, align []int) []float64 {
	edges := g.blockEdges(sp, layers, root)
	n := len(root)
	in, out := make([][]int, n), make([][]int, n)
	for k, e := range edges {
		out[e.from] = append(out[e.from], k)
		in[e.to] = append(in[e.to], k)
	}
	order := blockOrder(root, edges, in, out)
	xs := make([]float64, n)
	for _, v := range order {
		for _, k := range in[v] {
			xs[v] = max(xs[v], xs[edges[k].from]+edges[k].gap)
		}
	}
	for i := len(order) - 1; i >= 0; i-- {
		v := order[i]
		lowest := math.Inf(1)
		for _, k := range out[v] {
			lowest = min(lowest, xs[edges[k].to]-edges[k].gap)
		}
		if !math.IsInf(lowest, 1) {
			xs[v] = max(xs[v], lowest)
		}
	}
	for v := range xs {
		xs[v] = xs[root[v]]
	}
	return xs
}

// blockEdges returns the separation constraints between blocks: one per
// pair of blocks that are neighbours in some layer, with the largest gap
// any of their vertices needs.
func (g *lgraph) blockEdges(sp spacing, layers [][]int, root []int) []blockEdge {
	index := map[uint64]int{}
	var edges []blockEdge
	for _, l := range layers {
		for i := 1; i < len(l); i++ {
			u, v := l[i-1], l[i]
			key := uint64(root[u])<<32 | uint64(uint32(root[v]))
			gap := g.sep(sp, u, v)
			if k, ok := index[key]; ok {
				edges[k].gap = max(edges[k].gap, gap)
				continue
			}
			index[key] = len(edges)
			edges = append(edges, blockEdge{root[u], root[v], gap})
		}
	}
	return edges
}

// blockOrder returns the block roots in topological order of the
// separation constraints.
func blockOrder(root []int, edges []blockEdge, in, out [][]int) []int {
	indeg := make([]int, len(root))
	for v := range in {
		indeg[v] = len(in[v])
	}
	var order []int
	for v := range root {
		if root[v] == v && indeg[v] == 0 {
			order = append(order, v)
		}
	}
	for i := 0; i < len(order); i++ {
		for _, k := range out[order[i]] {
			w := edges[k].to
			if indeg[w]--; indeg[w] == 0 {
				order = append(order, w)
			}
		}
	}
	return order
}

// balance aligns the four candidate placements to the narrowest one (the
// left-compacted ones by their left border, the right-compacted ones by
// their right border) and gives each vertex the mean of its two median
// candidates.
func (g *lgraph) balance(xss [4][]float64) []float64 {
	var lo, hi [4]float64
	best := 0
	for k, xs := range xss {
		lo[k], hi[k] = math.Inf(1), math.Inf(-1)
		for v, x := range xs {
			lo[k], hi[k] = min(lo[k], x-g.width[v]/2), max(hi[k], x+g.width[v]/2)
		}
		if hi[k]-lo[k] < hi[best]-lo[best] {
			best = k
		}
	}
	for k, xs := range xss {
		delta := lo[best] - lo[k]
		if k%2 == 1 {
			delta = hi[best] - hi[k]
		}
		for v := range xs {
			xs[v] += delta
		}
	}
	out := make([]float64, len(g.rank))
	var c [4]float64
	for v := range out {
		for k := range c {
			c[k] = xss[k][v]
		}
		sort.Float64s(c[:])
		out[v] = (c[1] + c[2]) / 2
	}
	return out
}
