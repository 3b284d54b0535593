package graphviz

import (
	"fmt"
	"sort"
)

// crossings counts the edge crossings between every pair of adjacent
// layers of g in its current order.
func (g *lgraph) crossings() int {
	total := 0
	var south []int
	for r := 0; r+1 < len(g.layers); r++ {
		south = south[:0]
		for _, v := range g.layers[r] {
			start := len(south)
			for _, w := range g.down[v] {
				south = append(south, g.pos[w])
			}
			sort.Ints(south[start:])
		}
		total += inversions(south, len(g.layers[r+1]))
	}
	return total
}

// inversions counts the pairs i < j with seq[i] > seq[j], for values in
// [0, size), with the accumulator tree of Barth, Jünger and Mutzel,
// "Simple and Efficient Bilayer Cross Counting" (2004): O(len(seq) log size).
func inversions(seq []int, size int) int {
	first := 1
	for first < size {
		first *= 2
	}
	tree := make([]int, 2*first-1)
	first--
	count := 0
	for _, x := range seq {
		i := x + first
		tree[i]++
		for i > 0 {
			if i%2 == 1 {
				count += tree[i+1]
			}
			i = (i - 1) / 2
			tree[i]++
		}
	}
	return count
}

// CountCrossings counts the edge crossings of g drawn as l, measured the
// same way for any layered drawing, ours or one read with [ReadPlain]:
// node centres of equal height form a level; each edge is cut at every
// level it passes (its route's first meeting with the level's line, or
// the straight line between its ends when the route misses it), and two
// edge pieces between adjacent levels cross when their order at the top
// differs from their order at the bottom. Edges within one level are not
// counted. It takes O(S log S) time for S edge pieces.
func CountCrossings(g *Graph, l *Layout) (int, error) {
	_, ends, err := g.resolve()
	if err != nil {
		return 0, err
	}
	if len(l.Nodes) != len(g.Nodes) || len(l.Edges) != len(g.Edges) {
		return 0, fmt.Errorf("graphviz: layout of %d nodes and %d edges for a graph of %d and %d",
			len(l.Nodes), len(l.Edges), len(g.Nodes), len(g.Edges))
	}
	levels := l.levels()
	levelOf := func(v int) int { return sort.SearchFloat64s(levels, roundLevel(l.Nodes[v].Y)) }
	pieces := make([][][2]float64, len(levels))
	var xs []float64
	for i, e := range ends {
		u, v := e[0], e[1]
		a, b := levelOf(u), levelOf(v)
		if a == b {
			continue
		}
		if a > b {
			a, b, u, v = b, a, v, u
		}
		xs = append(xs[:0], l.Nodes[u].X)
		for k := a + 1; k < b; k++ {
			x, ok := l.Edges[i].xAt(levels[k])
			if !ok {
				t := (levels[k] - l.Nodes[u].Y) / (l.Nodes[v].Y - l.Nodes[u].Y)
				x = l.Nodes[u].X + t*(l.Nodes[v].X-l.Nodes[u].X)
			}
			xs = append(xs, x)
		}
		xs = append(xs, l.Nodes[v].X)
		for k := a; k < b; k++ {
			pieces[k] = append(pieces[k], [2]float64{xs[k-a], xs[k-a+1]})
		}
	}
	total := 0
	for _, ps := range pieces {
		total += pieceCrossings(ps)
	}
	return total, nil
}

// pieceCrossings counts the pairs of pieces whose top and bottom orders
// strictly disagree.
func pieceCrossings(ps [][2]float64) int {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i][0] != ps[j][0] {
			return ps[i][0] < ps[j][0]
		}
		return ps[i][1] < ps[j][1]
	})
	bottoms := make([]float64, len(ps))
	for i, p := range ps {
		bottoms[i] = p[1]
	}
	sort.Float64s(bottoms)
	seq := make([]int, len(ps))
	for i, p := range ps {
		seq[i] = sort.SearchFloat64s(bottoms, p[1])
	}
	return inversions(seq, len(ps))
}
