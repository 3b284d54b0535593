package graphviz

// networkSimplex ranks the nodes of the acyclic graph es so as to minimise
// the sum over edges of weight × length, every edge at least one rank
// long: the network simplex method of Gansner, Koutsofios, North and Vo,
// "A Technique for Drawing Directed Graphs" (1993), with the incremental
// cut-value updates of Graphviz's ns.c. Each connected component is ranked
// on its own and starts at rank 0.
func networkSimplex(n int, es []dagEdge) []int {
	rank := make([]int, n)
	for _, comp := range components(n, es) {
		if len(comp.nodes) == 1 {
			continue
		}
		ns := newSimplex(comp.nodes, comp.edges, es)
		ns.solve()
		for i, v := range comp.nodes {
			rank[v] = ns.rank[i]
		}
	}
	return rank
}

// component is one weakly connected component: its nodes and edges.
type component struct{ nodes, edges []int }

// components splits the graph into weakly connected components, each
// listing its nodes and edges in ascending order.
func components(n int, es []dagEdge) []component {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, e := range es {
		a, b := find(e.from), find(e.to)
		if a != b {
			parent[max(a, b)] = min(a, b)
		}
	}
	index := map[int]int{}
	var out []component
	for v := 0; v < n; v++ {
		r := find(v)
		k, ok := index[r]
		if !ok {
			k = len(out)
			index[r] = k
			out = append(out, component{})
		}
		out[k].nodes = append(out[k].nodes, v)
	}
	for i, e := range es {
		k := index[find(e.from)]
		out[k].edges = append(out[k].edges, i)
	}
	return out
}

// simplex is the network simplex state for one connected component, with
// nodes and edges renumbered from 0.
type simplex struct {
	tail, head, weight []int
	out, in            [][]int // node -> incident edges
	rank               []int

	tree      []bool  // edge -> in the spanning tree
	treeAdj   [][]int // node -> incident tree edges
	treeEdges []int   // the tree's edges
	treeIndex []int   // edge -> position in treeEdges
	cut       []int   // tree edge -> cut value
	par       []int   // node -> edge to its parent, -1 at the root
	low, lim  []int   // node -> postorder range of its subtree
	search    int     // where the search for a leaving edge resumes
}

func newSimplex(nodes, edges []int, es []dagEdge) *simplex {
	local := make(map[int]int, len(nodes))
	for i, v := range nodes {
		local[v] = i
	}
	n, m := len(nodes), len(edges)
	s := &simplex{
		tail: make([]int, m), head: make([]int, m), weight: make([]int, m),
		out: make([][]int, n), in: make([][]int, n),
		tree: make([]bool, m), treeAdj: make([][]int, n), treeIndex: make([]int, m),
		cut: make([]int, m), par: make([]int, n), low: make([]int, n), lim: make([]int, n),
	}
	local2 := make([]dagEdge, m)
	for i, ei := range edges {
		e := es[ei]
		s.tail[i], s.head[i], s.weight[i] = local[e.from], local[e.to], e.weight
		s.out[s.tail[i]] = append(s.out[s.tail[i]], i)
		s.in[s.head[i]] = append(s.in[s.head[i]], i)
		local2[i] = dagEdge{from: s.tail[i], to: s.head[i], weight: e.weight}
	}
	s.rank = longestPath(n, local2)
	return s
}

// slack is how much longer than its minimum length of 1 edge e is.
func (s *simplex) slack(e int) int { return s.rank[s.head[e]] - s.rank[s.tail[e]] - 1 }

// other returns the endpoint of e that is not v.
func (s *simplex) other(e, v int) int {
	if s.tail[e] == v {
		return s.head[e]
	}
	return s.tail[e]
}

// solve runs the method to optimality, or until an iteration bound that
// only pathological inputs reach; the ranking is feasible either way.
func (s *simplex) solve() {
	s.feasibleTree()
	s.dfsRange(0, -1, 1)
	s.initCutValues()
	limit := 10*len(s.rank) + 1000
	for i := 0; i < limit; i++ {
		e := s.leaveEdge()
		if e < 0 {
			break
		}
		f := s.enterEdge(e)
		if f < 0 {
			break
		}
		s.update(e, f)
	}
	lo := s.rank[0]
	for _, r := range s.rank {
		lo = min(lo, r)
	}
	for v := range s.rank {
		s.rank[v] -= lo
	}
}

// feasibleTree grows a spanning tree of tight edges from node 0, shifting
// the tree's ranks to tighten the least slack edge leaving it whenever it
// cannot grow further.
func (s *simplex) feasibleTree() {
	n := len(s.rank)
	in := make([]bool, n)
	in[0] = true
	members := []int{0}
	for {
		members = s.growTight(in, members)
		if len(members) == n {
			return
		}
		best, delta := -1, 0
		for e := range s.tail {
			if in[s.tail[e]] == in[s.head[e]] {
				continue
			}
			if sl := s.slack(e); best < 0 || sl < delta {
				best, delta = e, sl
			}
		}
		if in[s.head[best]] {
			delta = -delta
		}
		for _, v := range members {
			s.rank[v] += delta
		}
	}
}

// growTight adds to the tree every node reachable from it over tight
// edges, and returns the tree's members.
func (s *simplex) growTight(in []bool, members []int) []int {
	stack := append([]int(nil), members...)
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, list := range [2][]int{s.out[v], s.in[v]} {
			for _, e := range list {
				w := s.other(e, v)
				if in[w] || s.slack(e) != 0 {
					continue
				}
				in[w] = true
				members = append(members, w)
				stack = append(stack, w)
				s.addTreeEdge(e)
			}
		}
	}
	return members
}

func (s *simplex) addTreeEdge(e int) {
	s.tree[e] = true
	s.treeIndex[e] = len(s.treeEdges)
	s.treeEdges = append(s.treeEdges, e)
	s.treeAdj[s.tail[e]] = append(s.treeAdj[s.tail[e]], e)
	s.treeAdj[s.head[e]] = append(s.treeAdj[s.head[e]], e)
}
