package graphviz

import (
	"strconv"
	"strings"
)

// MergeParallel returns a copy of g in which the edges joining the same
// two nodes, in either direction, are drawn as one: the first such edge,
// labelled with the distinct labels of the group ("a, b, c", or "a, b +3"
// beyond three) and with the attribute "count" set to the group's size
// when it is more than one. Nodes and the first edge's attributes are
// shared with g, never modified. Edges keep the order of their first
// member. It takes O(E) time.
func MergeParallel(g *Graph) *Graph {
	out := &Graph{Name: g.Name, Attrs: g.Attrs, Nodes: g.Nodes}
	group := map[[2]string]int{}
	var labels [][]string
	var counts []int
	for _, e := range g.Edges {
		key := [2]string{min(e.From, e.To), max(e.From, e.To)}
		k, ok := group[key]
		if !ok {
			k = len(out.Edges)
			group[key] = k
			out.Edges = append(out.Edges, e)
			labels = append(labels, nil)
			counts = append(counts, 0)
		}
		counts[k]++
		if e.Label != "" && !contains(labels[k], e.Label) {
			labels[k] = append(labels[k], e.Label)
		}
	}
	for k := range out.Edges {
		if counts[k] == 1 {
			continue
		}
		e := &out.Edges[k]
		a := make(Attrs, len(e.Attrs)+1)
		merge(a, e.Attrs)
		a["count"] = strconv.Itoa(counts[k])
		e.Attrs = a
		if l := labels[k]; len(l) <= 3 {
			e.Label = strings.Join(l, ", ")
		} else {
			e.Label = strings.Join(l[:2], ", ") + " +" + strconv.Itoa(len(l)-2)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
