package graphviz

import (
	"container/heap"
	"math"
	"slices"
	"sort"
)

// newOrder returns the nodes from old on in topological order of the
// edges among them, earliest Seq first; nodes on a cycle follow in Seq
// order once nothing else is ready.
func newOrder(g *Graph, old int, ends [][2]int) []int {
	n := len(g.Nodes)
	out := make([][]int, n)
	indeg := make([]int, n)
	for _, e := range ends {
		if e[0] >= old && e[1] >= old && e[0] != e[1] {
			out[e[0]] = append(out[e[0]], e[1])
			indeg[e[1]]++
		}
	}
	seq := make([]int64, n)
	for i := range g.Nodes {
		seq[i] = g.Nodes[i].Seq
	}
	ready := &seqHeap{seq: seq}
	waiting := &seqHeap{seq: seq}
	for v := old; v < n; v++ {
		heap.Push(waiting, v)
		if indeg[v] == 0 {
			heap.Push(ready, v)
		}
	}
	done := make([]bool, n)
	var order []int
	for len(order) < n-old {
		var v int
		if ready.Len() > 0 {
			v = heap.Pop(ready).(int)
		} else {
			v = heap.Pop(waiting).(int)
		}
		if done[v] {
			continue
		}
		done[v] = true
		order = append(order, v)
		for _, w := range out[v] {
			if indeg[w]--; indeg[w] == 0 && !done[w] {
				heap.Push(ready, w)
			}
		}
	}
	return order
}

// appendRanks gives every node a rank: the existing ones keep theirs, and
// each new one, in order, goes one below its lowest ranked predecessor
// and, with TimeOrdered, no higher than any ranked node of smaller Seq.
func (s *Incremental) appendRanks(old int, order []int, ends [][2]int) []int {
	rank := make([]int, len(s.g.Nodes))
	ranked := make([]bool, len(s.g.Nodes))
	for v := 0; v < old; v++ {
		rank[v], ranked[v] = s.l.Nodes[v].Rank, true
	}
	preds := make([][]int, len(s.g.Nodes))
	for _, e := range ends {
		if e[1] >= old && e[0] != e[1] {
			preds[e[1]] = append(preds[e[1]], e[0])
		}
	}
	for _, v := range order {
		r := 0
		if s.opt.Ranking == TimeOrdered {
			for u := range rank {
				if ranked[u] && s.g.Nodes[u].Seq <= s.g.Nodes[v].Seq {
					r = max(r, rank[u])
				}
			}
		}
		for _, p := range preds[v] {
			if ranked[p] {
				r = max(r, rank[p]+1)
			}
		}
		rank[v], ranked[v] = r, true
	}
	return rank
}

// neighbours returns every node's neighbours, ignoring direction.
func neighbours(n int, ends [][2]int) [][]int {
	adj := make([][]int, n)
	for _, e := range ends {
		if e[0] != e[1] {
			adj[e[0]] = append(adj[e[0]], e[1])
			adj[e[1]] = append(adj[e[1]], e[0])
		}
	}
	return adj
}

// placeNode puts new node v on rank r as near the mean x of its placed
// neighbours as the obstacles allow, or right of everything on the rank.
func (s *Incremental) placeNode(v, r int, adj []int, placed []bool) {
	w, h := s.opt.Sizing.Size(s.g.Nodes[v].text())
	y := s.rankLine(r, h)
	s.tall[r] = max(s.tall[r], h)
	sum, k := 0.0, 0
	for _, u := range adj {
		if placed[u] {
			sum += s.l.Nodes[u].X
			k++
		}
	}
	desired := math.Inf(1)
	if k > 0 {
		desired = sum / float64(k)
	}
	x := s.freeX(desired, y, w, h, s.opt.NodeSep)
	order := 0
	for u, b := range s.l.Nodes {
		if placed[u] && b.Rank == r && b.X < x {
			order++
		}
	}
	b := Box{X: x, Y: y, W: w, H: h, Rank: r, Order: order}
	s.l.Nodes[v] = b
	s.obstacles = append(s.obstacles, b)
}

// freeX returns the x nearest desired (ties to the right) at which a box
// of size w×h centred on line y keeps gap from every obstacle and the
// margin from the left edge. An infinite desired x asks for the first
// free place right of every obstacle on the line.
func (s *Incremental) freeX(desired, y, w, h, gap float64) float64 {
	lowest := margin + w/2
	var spans [][2]float64
	for _, o := range s.obstacles {
		if math.Abs(o.Y-y) < (o.H+h)/2 {
			reach := o.W/2 + gap + w/2
			spans = append(spans, [2]float64{o.X - reach, o.X + reach})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var merged [][2]float64
	for _, sp := range spans {
		if k := len(merged) - 1; k >= 0 && sp[0] <= merged[k][1] {
			merged[k][1] = max(merged[k][1], sp[1])
			continue
		}
		merged = append(merged, sp)
	}
	if math.IsInf(desired, 1) {
		if len(merged) == 0 {
			return lowest
		}
		return max(lowest, merged[len(merged)-1][1])
	}
	desired = max(desired, lowest)
	best, dist := math.Inf(1), math.Inf(1)
	consider := func(x float64) {
		if x < lowest || blocked(merged, x) {
			return
		}
		if d := math.Abs(x - desired); d < dist || (d == dist && x > best) {
			best, dist = x, d
		}
	}
	consider(desired)
	for _, sp := range merged {
		consider(sp[0])
		consider(sp[1])
	}
	if math.IsInf(best, 1) {
		best = max(lowest, merged[len(merged)-1][1])
	}
	return best
}

// blocked reports whether x lies strictly inside one of the spans.
func blocked(spans [][2]float64, x float64) bool {
	i := sort.Search(len(spans), func(i int) bool { return spans[i][1] > x })
	return i < len(spans) && spans[i][0] < x
}

// routeNew draws an appended edge: down through the ranks between its
// ends at free places, or against the ranking, or along one rank.
func (s *Incremental) routeNew(e [2]int) {
	a, b := s.l.Nodes[e[0]], s.l.Nodes[e[1]]
	var r Route
	switch {
	case e[0] == e[1]:
		r = loopRoute(a)
	case a.Rank == b.Rank:
		dir := math.Copysign(1, b.X-a.X)
		r = Route{Points: []Point{{a.X + dir*a.W/2, a.Y}, {b.X - dir*b.W/2, b.Y}}}
	case a.Rank < b.Rank:
		r = s.downRoute(a, b)
	default:
		r = s.downRoute(b, a)
		slices.Reverse(r.Points)
		r.Reversed = true
	}
	if s.opt.Splines {
		r = r.smooth()
	}
	s.l.Edges = append(s.l.Edges, r)
}

// downRoute runs from the bottom of a to the top of b, crossing each rank
// between them at the free place nearest the straight line, which it then
// reserves.
func (s *Incremental) downRoute(a, b Box) Route {
	pts := []Point{{a.X, a.Y + a.H/2}}
	for k := a.Rank + 1; k < b.Rank; k++ {
		y := s.rankLine(k, 0)
		t := (y - a.Y) / (b.Y - a.Y)
		x := s.freeX(a.X+t*(b.X-a.X), y, 0, s.tall[k], s.opt.NodeSep/2)
		pts = append(pts, Point{x, y})
		s.obstacles = append(s.obstacles, Box{X: x, Y: y, W: 1, H: s.tall[k]})
	}
	return Route{Points: append(pts, Point{b.X, b.Y - b.H/2})}
}
