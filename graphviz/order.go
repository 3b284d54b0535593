package graphviz

import "sort"

// orderLimits bound the crossing reduction: sweeps is the most median
// sweeps, stall the sweeps without improvement after which it stops, and
// passes the most transposition passes after a sweep.
type orderLimits struct{ sweeps, stall, passes int }

// reduceCrossings orders every layer to reduce edge crossings: a
// depth-first initial order, then alternating downward and upward sweeps
// that sort each layer by the weighted median of its neighbours on the
// previous layer, each followed by transposition of adjacent vertices
// (Gansner et al., 1993). It keeps the best order seen.
func (g *lgraph) reduceCrossings(lim orderLimits) int {
	g.initOrder()
	g.transpose(false, lim.passes)
	best := g.crossings()
	bestOrder := g.copyLayers()
	stall := 0
	for it := 0; it < lim.sweeps && best > 0 && stall < lim.stall; it++ {
		down := it%2 == 0
		if down {
			for r := 1; r < len(g.layers); r++ {
				g.sortByMedian(r, g.up)
			}
		} else {
			for r := len(g.layers) - 2; r >= 0; r-- {
				g.sortByMedian(r, g.down)
			}
		}
		g.transpose(it%4 >= 2, lim.passes)
		if c := g.crossings(); c < best {
			best, bestOrder, stall = c, g.copyLayers(), 0
		} else {
			stall++
		}
	}
	g.setLayers(bestOrder)
	return best
}

// orderComponents orders each connected component on its own and puts
// the components side by side in the order of their first vertex, so
// that edges of different components never cross (as dot does). It
// returns the number of crossings.
func (g *lgraph) orderComponents(lim orderLimits) int {
	comps := g.vertexComponents()
	seen := make([]bool, len(g.rank))
	total := 0
	parts := make([]*lgraph, len(comps))
	for i, members := range comps {
		lo, hi := g.rank[members[0]], g.rank[members[0]]
		for _, v := range members {
			lo, hi = min(lo, g.rank[v]), max(hi, g.rank[v])
		}
		sub := *g
		sub.layers = make([][]int, hi-lo+1)
		sub.base, sub.members, sub.seen = lo, members, seen
		total += sub.reduceCrossings(lim)
		parts[i] = &sub
	}
	for r := range g.layers {
		g.layers[r] = g.layers[r][:0]
	}
	for _, p := range parts {
		for k, l := range p.layers {
			g.layers[p.base+k] = append(g.layers[p.base+k], l...)
		}
	}
	for r := range g.layers {
		g.renumber(r)
	}
	return total
}

// vertexComponents returns the weakly connected components of the layered
// graph, each as its vertices in ascending order, ordered by their first.
func (g *lgraph) vertexComponents() [][]int {
	comp := make([]int, len(g.rank))
	for v := range comp {
		comp[v] = -1
	}
	var out [][]int
	var stack []int
	for s := range g.rank {
		if comp[s] >= 0 {
			continue
		}
		c := len(out)
		out = append(out, nil)
		comp[s] = c
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			out[c] = append(out[c], v)
			for _, list := range [2][]int{g.up[v], g.down[v]} {
				for _, w := range list {
					if comp[w] < 0 {
						comp[w] = c
						stack = append(stack, w)
					}
				}
			}
		}
		sort.Ints(out[c])
	}
	return out
}

// initOrder places the vertices of the view in the order a depth-first
// search from its sources, in input order, first reaches them.
func (g *lgraph) initOrder() {
	for r := range g.layers {
		g.layers[r] = g.layers[r][:0]
	}
	seen := g.seen
	var stack []int
	for _, s := range g.members {
		if seen[s] || len(g.up[s]) > 0 {
			continue
		}
		stack = append(stack[:0], s)
		seen[s] = true
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r := g.rank[v] - g.base
			g.layers[r] = append(g.layers[r], v)
			for i := len(g.down[v]) - 1; i >= 0; i-- {
				if w := g.down[v][i]; !seen[w] {
					seen[w] = true
					stack = append(stack, w)
				}
			}
		}
	}
	for r := range g.layers {
		g.renumber(r)
	}
}

// sortByMedian reorders layer r by the weighted median position of each
// vertex's neighbours in adj; vertices without neighbours keep their
// places.
func (g *lgraph) sortByMedian(r int, adj [][]int) {
	layer := g.layers[r]
	type keyed struct {
		v   int
		med float64
	}
	var movable []keyed
	var buf []int
	for _, v := range layer {
		buf = buf[:0]
		for _, w := range adj[v] {
			buf = append(buf, g.pos[w])
		}
		if len(buf) > 0 {
			movable = append(movable, keyed{v, medianValue(buf)})
		}
	}
	sort.SliceStable(movable, func(i, j int) bool { return movable[i].med < movable[j].med })
	k := 0
	for i, v := range layer {
		if len(adj[v]) > 0 {
			layer[i] = movable[k].v
			k++
		}
	}
	g.renumber(r)
}

// medianValue is the weighted median of positions (Gansner et al.): the
// middle one for an odd count, and for an even count the two middle ones
// weighted towards the side whose positions are packed more tightly.
func medianValue(p []int) float64 {
	sort.Ints(p)
	m := len(p) / 2
	switch {
	case len(p)%2 == 1:
		return float64(p[m])
	case len(p) == 2:
		return float64(p[0]+p[1]) / 2
	}
	left, right := float64(p[m-1]-p[0]), float64(p[len(p)-1]-p[m])
	if left+right == 0 {
		return float64(p[m-1]+p[m]) / 2
	}
	return (float64(p[m-1])*right + float64(p[m])*left) / (left + right)
}

// transpose swaps adjacent vertices of every layer while that lowers the
// crossings with both neighbouring layers, for at most passes passes;
// after the first pass only layers next to a changed one are revisited.
// With even set it also swaps pairs whose crossings tie, which lets sweeps
// escape plateaus.
func (g *lgraph) transpose(even bool, passes int) {
	dirty := make([]bool, len(g.layers))
	next := make([]bool, len(g.layers))
	for r := range dirty {
		dirty[r] = true
	}
	for p := 0; p < passes; p++ {
		changed := false
		clear(next)
		for r := range g.layers {
			if !dirty[r] || g.transposeLayer(r, even) == 0 {
				continue
			}
			changed = true
			for k := max(0, r-1); k <= min(len(g.layers)-1, r+1); k++ {
				next[k] = true
			}
		}
		if !changed {
			return
		}
		dirty, next = next, dirty
	}
}

func (g *lgraph) transposeLayer(r int, even bool) int {
	layer := g.layers[r]
	gain := 0
	for i := 0; i+1 < len(layer); i++ {
		v, w := layer[i], layer[i+1]
		c0 := g.pairCrossings(v, w)
		if c0 == 0 {
			continue
		}
		c1 := g.pairCrossings(w, v)
		if c1 < c0 || (even && c1 == c0) {
			layer[i], layer[i+1] = w, v
			g.pos[v], g.pos[w] = i+1, i
			gain += c0 - c1
		}
	}
	return gain
}

// pairCrossings counts the crossings among the edges of v and w, with v
// to the left of w.
func (g *lgraph) pairCrossings(v, w int) int {
	return g.crossBetween(g.up[v], g.up[w]) + g.crossBetween(g.down[v], g.down[w])
}

// crossBetween counts pairs a in as, b in bs with a placed right of b.
func (g *lgraph) crossBetween(as, bs []int) int {
	c := 0
	for _, a := range as {
		pa := g.pos[a]
		for _, b := range bs {
			if pa > g.pos[b] {
				c++
			}
		}
	}
	return c
}
