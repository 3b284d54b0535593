package graphviz

import (
	"math"
	"slices"
	"sort"
)

// spacing is the horizontal room between neighbours in a layer: nodeSep
// between real nodes, edgeSep between virtual ones, and their mean
// between one of each.
type spacing struct{ node, edge float64 }

func (g *lgraph) sep(sp spacing, u, v int) float64 {
	gap := sp.node
	switch {
	case g.virtual(u) && g.virtual(v):
		gap = sp.edge
	case g.virtual(u) || g.virtual(v):
		gap = (sp.node + sp.edge) / 2
	}
	return (g.width[u]+g.width[v])/2 + gap
}

// positionX assigns every vertex an x coordinate (its centre) with the
// method of Brandes and Köpf, "Fast and Simple Horizontal Coordinate
// Assignment" (2001): four alignments of vertices into vertical blocks
// (towards the upper or lower neighbours, from the left or the right),
// each compacted to the side it came from, then balanced by taking the
// mean of the two median candidates. Each candidate keeps neighbours at
// least their separation apart, and so does the balanced result. Runs in
// O(V+E) apart from sorting neighbour lists.
func (g *lgraph) positionX(sp spacing) []float64 {
	conflicts := g.type1Conflicts()
	var xss [4][]float64
	for k := range xss {
		upward, right := k < 2, k%2 == 1
		layers := slices.Clone(g.layers)
		if !upward {
			slices.Reverse(layers)
		}
		if right {
			for i := range layers {
				layers[i] = slices.Clone(layers[i])
				slices.Reverse(layers[i])
			}
		}
		pos := make([]int, len(g.rank))
		for _, l := range layers {
			for i, v := range l {
				pos[v] = i
			}
		}
		nb := g.down
		if upward {
			nb = g.up
		}
		root, align := verticalAlignment(layers, pos, nb, conflicts)
		xs := g.compact(sp, layers, root, align)
		if right {
			for i := range xs {
				xs[i] = -xs[i]
			}
		}
		xss[k] = xs
	}
	return g.balance(xss)
}

// conflictKey names the edge between an upper and a lower vertex.
func conflictKey(a, b int) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(a)<<32 | uint64(uint32(b))
}

// type1Conflicts marks the edges that cross an inner segment (an edge
// between two virtual vertices), so that alignment keeps long edges
// straight in preference to short ones.
func (g *lgraph) type1Conflicts() map[uint64]bool {
	marked := map[uint64]bool{}
	for i := 0; i+1 < len(g.layers); i++ {
		prev, layer := g.layers[i], g.layers[i+1]
		k0, scan := 0, 0
		for l, v := range layer {
			w := g.innerUpper(v)
			k1 := len(prev)
			if w >= 0 {
				k1 = g.pos[w]
			}
			if w < 0 && l != len(layer)-1 {
				continue
			}
			for _, s := range layer[scan : l+1] {
				for _, u := range g.up[s] {
					if p := g.pos[u]; (p < k0 || k1 < p) && !(g.virtual(u) && g.virtual(s)) {
						marked[conflictKey(u, s)] = true
					}
				}
			}
			scan, k0 = l+1, k1
		}
	}
	return marked
}

// innerUpper returns the upper end of the inner segment ending at v, or -1.
func (g *lgraph) innerUpper(v int) int {
	if !g.virtual(v) {
		return -1
	}
	for _, u := range g.up[v] {
		if g.virtual(u) {
			return u
		}
	}
	return -1
}

// verticalAlignment groups vertices into blocks: each vertex joins the
// block of its median neighbour on the previous layer unless that would
// cross an alignment made already or a marked conflict.
func verticalAlignment(layers [][]int, pos []int, nb [][]int, conflicts map[uint64]bool) (root, align []int) {
	root, align = make([]int, len(pos)), make([]int, len(pos))
	for v := range root {
		root[v], align[v] = v, v
	}
	var ws []int
	for _, layer := range layers {
		r := -1
		for _, v := range layer {
			ws = append(ws[:0], nb[v]...)
			if len(ws) == 0 {
				continue
			}
			sort.Slice(ws, func(i, j int) bool { return pos[ws[i]] < pos[ws[j]] })
			mp := float64(len(ws)-1) / 2
			for i := int(math.Floor(mp)); i <= int(math.Ceil(mp)); i++ {
				w := ws[i]
				if align[v] == v && r < pos[w] && !conflicts[conflictKey(v, w)] {
					align[w] = v
					root[v] = root[w]
					align[v] = root[v]
					r = pos[w]
				}
			}
		}
	}
	return root, align
}
