package graphviz

import (
	"container/heap"
	"fmt"
)

// Ranking chooses how a layered layout assigns nodes to layers.
type Ranking int

// The rankings. Every ranking puts the head of each edge of the acyclic
// graph at least one rank below its tail.
const (
	// NetworkSimplex minimises the total length of the edges, as dot does
	// (Gansner et al., 1993). It is the default.
	NetworkSimplex Ranking = iota
	// LongestPath puts every source on the top rank and every other node
	// one rank below its lowest predecessor.
	LongestPath
	// TimeOrdered keeps ranks non-decreasing in [Node.Seq]: a node never
	// sits above one that started before it, so the vertical axis reads
	// as time.
	TimeOrdered
)

// String returns the ranking's name as [ParseRanking] reads it.
func (r Ranking) String() string {
	switch r {
	case NetworkSimplex:
		return "simplex"
	case LongestPath:
		return "longest"
	case TimeOrdered:
		return "time"
	}
	return fmt.Sprintf("Ranking(%d)", int(r))
}

// ParseRanking reads "simplex", "longest" or "time".
func ParseRanking(s string) (Ranking, error) {
	for _, r := range []Ranking{NetworkSimplex, LongestPath, TimeOrdered} {
		if r.String() == s {
			return r, nil
		}
	}
	return 0, fmt.Errorf("graphviz: unknown ranking %q (want simplex, longest or time)", s)
}

// assignRanks ranks the n nodes of the acyclic graph es.
func assignRanks(n int, es []dagEdge, seq []int64, how Ranking) []int {
	switch how {
	case LongestPath:
		return longestPath(n, es)
	case TimeOrdered:
		return timeOrdered(n, es, seq)
	}
	return networkSimplex(n, es)
}

// longestPath ranks nodes by Kahn's algorithm: sources on rank 0, every
// other node one below its lowest predecessor. O(V+E).
func longestPath(n int, es []dagEdge) []int {
	out, indeg := successors(n, es)
	rank := make([]int, n)
	queue := make([]int, 0, n)
	for v := 0; v < n; v++ {
		if indeg[v] == 0 {
			queue = append(queue, v)
		}
	}
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		for _, w := range out[v] {
			rank[w] = max(rank[w], rank[v]+1)
			if indeg[w]--; indeg[w] == 0 {
				queue = append(queue, w)
			}
		}
	}
	return rank
}

// timeOrdered visits nodes in topological order, earliest Seq first (ties
// by index), and gives each the rank of the node visited before it, or one
// below its lowest predecessor if that is lower. O((V+E) log V).
func timeOrdered(n int, es []dagEdge, seq []int64) []int {
	out, indeg := successors(n, es)
	rank := make([]int, n)
	ready := &seqHeap{seq: seq}
	for v := 0; v < n; v++ {
		if indeg[v] == 0 {
			ready.items = append(ready.items, v)
		}
	}
	heap.Init(ready)
	last := 0
	for ready.Len() > 0 {
		v := heap.Pop(ready).(int)
		rank[v] = max(rank[v], last)
		last = rank[v]
		for _, w := range out[v] {
			rank[w] = max(rank[w], rank[v]+1)
			if indeg[w]--; indeg[w] == 0 {
				heap.Push(ready, w)
			}
		}
	}
	return rank
}

// successors returns the successor lists and in-degrees of es.
func successors(n int, es []dagEdge) ([][]int, []int) {
	out := make([][]int, n)
	indeg := make([]int, n)
	for _, e := range es {
		out[e.from] = append(out[e.from], e.to)
		indeg[e.to]++
	}
	return out, indeg
}

// seqHeap is a min-heap of node indices by (seq, index).
type seqHeap struct {
	items []int
	seq   []int64
}

func (h *seqHeap) Len() int { return len(h.items) }
func (h *seqHeap) Less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	if h.seq[a] != h.seq[b] {
		return h.seq[a] < h.seq[b]
	}
	return a < b
}
func (h *seqHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *seqHeap) Push(x any)    { h.items = append(h.items, x.(int)) }
func (h *seqHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
