package graphviz

// dfsRange numbers the subtree of the spanning tree hanging from root in
// postorder starting at lowStart: par, low and lim of every node in it.
func (s *simplex) dfsRange(root, parEdge, lowStart int) {
	type frame struct{ v, next int }
	s.par[root], s.low[root] = parEdge, lowStart
	count := lowStart
	stack := []frame{{root, 0}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(s.treeAdj[f.v]) {
			s.lim[f.v] = count
			count++
			stack = stack[:len(stack)-1]
			continue
		}
		e := s.treeAdj[f.v][f.next]
		f.next++
		if e == s.par[f.v] {
			continue
		}
		w := s.other(e, f.v)
		s.par[w], s.low[w] = e, count
		stack = append(stack, frame{w, 0})
	}
}

// inSubtree reports whether node w lies in the subtree of node v.
func (s *simplex) inSubtree(w, v int) bool {
	return s.low[v] <= s.lim[w] && s.lim[w] <= s.lim[v]
}

// initCutValues computes every tree edge's cut value, children first.
func (s *simplex) initCutValues() {
	order := make([]int, len(s.rank))
	for v, l := range s.lim {
		order[l-1] = v
	}
	for _, v := range order {
		if s.par[v] >= 0 {
			s.cut[s.par[v]] = s.cutValue(s.par[v])
		}
	}
}

// cutValue computes the cut value of tree edge f from the edges incident
// to its lower endpoint, whose own tree edges already have theirs.
func (s *simplex) cutValue(f int) int {
	v, dir := s.head[f], -1
	if s.par[s.tail[f]] == f {
		v, dir = s.tail[f], 1
	}
	sum := 0
	for _, list := range [2][]int{s.out[v], s.in[v]} {
		for _, e := range list {
			sum += s.edgeTerm(e, v, dir)
		}
	}
	return sum
}

// edgeTerm is edge e's contribution to the cut value of v's parent edge.
func (s *simplex) edgeTerm(e, v, dir int) int {
	var rv int
	crosses := !s.inSubtree(s.other(e, v), v)
	if crosses {
		rv = s.weight[e]
	} else {
		if s.tree[e] {
			rv = s.cut[e]
		}
		rv -= s.weight[e]
	}
	d := -1
	if (dir > 0 && s.head[e] == v) || (dir < 0 && s.tail[e] == v) {
		d = 1
	}
	if crosses {
		d = -d
	}
	if d < 0 {
		rv = -rv
	}
	return rv
}

// searchSize bounds how many negative tree edges the search for a leaving
// edge compares, as in Graphviz.
const searchSize = 30

// leaveEdge returns a tree edge with a negative cut value, the most
// negative of the first searchSize found from where the last search
// stopped, or -1 when the tree is optimal.
func (s *simplex) leaveEdge() int {
	best, found := -1, 0
	n := len(s.treeEdges)
	for k := 0; k < n; k++ {
		i := (s.search + k) % n
		e := s.treeEdges[i]
		if s.cut[e] >= 0 {
			continue
		}
		if best < 0 || s.cut[e] < s.cut[best] {
			best = e
		}
		if found++; found >= searchSize {
			s.search = i
			return best
		}
	}
	return best
}

// enterEdge returns the non-tree edge of least slack that reconnects the
// two parts the tree falls into without e, crossing the cut the other way.
func (s *simplex) enterEdge(e int) int {
	v, outward := s.tail[e], false
	if s.lim[s.tail[e]] >= s.lim[s.head[e]] {
		v, outward = s.head[e], true
	}
	lo, hi := s.low[v], s.lim[v]
	enter, slack := -1, 0
	stack := []int{v}
	for len(stack) > 0 && (enter < 0 || slack > 0) {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		cross, back := s.in[u], s.out[u]
		if outward {
			cross, back = s.out[u], s.in[u]
		}
		for k, list := range [2][]int{cross, back} {
			for _, f := range list {
				w := s.other(f, u)
				switch {
				case s.tree[f]:
					if s.lim[w] < s.lim[u] {
						stack = append(stack, w)
					}
				case k == 0 && !(lo <= s.lim[w] && s.lim[w] <= hi):
					if sl := s.slack(f); enter < 0 || sl < slack {
						enter, slack = f, sl
					}
				}
			}
		}
	}
	return enter
}

// update swaps leaving tree edge e for entering edge f: it shifts the
// smaller part of the split tree to make f tight, updates the cut values
// on the tree path between f's endpoints, and renumbers the subtree below
// their lowest common ancestor.
func (s *simplex) update(e, f int) {
	if delta := s.slack(f); delta > 0 {
		child := s.tail[e]
		if s.lim[s.tail[e]] >= s.lim[s.head[e]] {
			child = s.head[e]
		}
		size := s.lim[child] - s.low[child] + 1
		tailSide := child == s.tail[e]
		if 2*size > len(s.rank) {
			tailSide = !tailSide
		}
		if tailSide {
			s.rerank(s.tail[e], e, delta)
		} else {
			s.rerank(s.head[e], e, -delta)
		}
	}
	cv := s.cut[e]
	lca := s.treeUpdate(s.tail[f], s.head[f], cv, true)
	s.treeUpdate(s.head[f], s.tail[f], cv, false)
	s.cut[f], s.cut[e] = -cv, 0
	s.exchange(e, f)
	s.dfsRange(lca, s.par[lca], s.low[lca])
}

// rerank lowers by delta the rank of every node joined to v by tree edges
// other than e.
func (s *simplex) rerank(v, e, delta int) {
	type frame struct{ v, via int }
	stack := []frame{{v, e}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		s.rank[f.v] -= delta
		for _, t := range s.treeAdj[f.v] {
			if t != f.via {
				stack = append(stack, frame{s.other(t, f.v), t})
			}
		}
	}
}

// treeUpdate walks from v up the tree until it reaches an ancestor of w,
// adding cv to the cut values of the edges it passes (or subtracting,
// depending on their direction), and returns that ancestor.
func (s *simplex) treeUpdate(v, w, cv int, dir bool) int {
	for !s.inSubtree(w, v) {
		e := s.par[v]
		d := dir
		if v != s.tail[e] {
			d = !d
		}
		if d {
			s.cut[e] += cv
		} else {
			s.cut[e] -= cv
		}
		if s.lim[s.tail[e]] > s.lim[s.head[e]] {
			v = s.tail[e]
		} else {
			v = s.head[e]
		}
	}
	return v
}

// exchange replaces tree edge e by f.
func (s *simplex) exchange(e, f int) {
	s.tree[e], s.tree[f] = false, true
	i := s.treeIndex[e]
	s.treeEdges[i], s.treeIndex[f] = f, i
	for _, v := range [2]int{s.tail[e], s.head[e]} {
		adj := s.treeAdj[v]
		for k, t := range adj {
			if t == e {
				adj[k] = adj[len(adj)-1]
				s.treeAdj[v] = adj[:len(adj)-1]
				break
			}
		}
	}
	s.treeAdj[s.tail[f]] = append(s.treeAdj[s.tail[f]], f)
	s.treeAdj[s.head[f]] = append(s.treeAdj[s.head[f]], f)
}
