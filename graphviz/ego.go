package graphviz

import (
	"fmt"
	"sort"
	"strconv"
)

// EgoIndex indexes a graph's adjacency, ignoring direction, so that the
// neighbourhood of any node can be cut out in time proportional to its
// size.
type EgoIndex struct {
	g        *Graph
	pos      map[string]int
	incident [][]int // node -> incident edges, in input order
	ends     [][2]int
}

// NewEgoIndex indexes g. It takes O(V+E) time and fails on the same
// malformed graphs as [Layered]. The graph must not change afterwards.
func NewEgoIndex(g *Graph) (*EgoIndex, error) {
	pos, ends, err := g.resolve()
	if err != nil {
		return nil, err
	}
	x := &EgoIndex{g: g, pos: pos, incident: make([][]int, len(g.Nodes)), ends: ends}
	for i, e := range ends {
		x.incident[e[0]] = append(x.incident[e[0]], i)
		if e[1] != e[0] {
			x.incident[e[1]] = append(x.incident[e[1]], i)
		}
	}
	return x, nil
}

// Ego returns the subgraph induced by the nodes at most hops edges away
// from center, ignoring direction: nodes in breadth-first order (the
// centre first, neighbours in edge order), at most limit of them when
// limit is positive, and the edges among them in input order. Each node's
// attributes are copied with "hop" set to its distance. It fails when
// center is unknown.
func (x *EgoIndex) Ego(center string, hops, limit int) (*Graph, error) {
	c, ok := x.pos[center]
	if !ok {
		return nil, fmt.Errorf("ego of %q: %w", center, ErrUnknownNode)
	}
	dist, order := x.reach(c, hops, limit)
	out := &Graph{Name: x.g.Name + " ego " + center, Attrs: x.g.Attrs}
	for _, v := range order {
		n := x.g.Nodes[v]
		a := make(Attrs, len(n.Attrs)+1)
		merge(a, n.Attrs)
		a["hop"] = strconv.Itoa(dist[v])
		n.Attrs = a
		out.Nodes = append(out.Nodes, n)
	}
	edges := x.inducedEdges(order, dist)
	sort.Ints(edges)
	for _, e := range edges {
		out.Edges = append(out.Edges, x.g.Edges[e])
	}
	return out, nil
}

// reach returns the distances of the nodes within hops of c, and those
// nodes in breadth-first order, at most limit of them when limit > 0.
func (x *EgoIndex) reach(c, hops, limit int) (map[int]int, []int) {
	dist := map[int]int{c: 0}
	order := []int{c}
	for i := 0; i < len(order) && (limit <= 0 || len(order) < limit); i++ {
		v := order[i]
		if dist[v] == hops {
			break
		}
		for _, e := range x.incident[v] {
			w := x.ends[e][0] + x.ends[e][1] - v
			if _, seen := dist[w]; seen {
				continue
			}
			dist[w] = dist[v] + 1
			order = append(order, w)
			if limit > 0 && len(order) == limit {
				break
			}
		}
	}
	return dist, order
}

// inducedEdges returns the edges whose both ends are in dist, each once.
func (x *EgoIndex) inducedEdges(order []int, dist map[int]int) []int {
	var edges []int
	for _, v := range order {
		for _, e := range x.incident[v] {
			u, w := x.ends[e][0], x.ends[e][1]
			_, ku := dist[u]
			_, kw := dist[w]
			if ku && kw && (v == min(u, w) || u == w) {
				edges = append(edges, e)
			}
		}
	}
	return edges
}
