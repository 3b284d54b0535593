package graphviz

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// Point is a position in points, y growing downwards.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Box is a node's place in a layout: its centre, size and, for layered
// layouts, its rank and position within the rank.
type Box struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
	// Rank is the node's layer (0 at the top) in a layered layout, 0 in
	// other layouts.
	Rank int
	// Order is the node's position from the left within its rank, 0 in
	// non-layered layouts.
	Order int `json:"order"`
}

// Route is the drawn path of an edge, from its From node to its To node.
type Route struct {
	// Points is a polyline or, when Spline is set, the control points of
	// a piecewise cubic Bézier curve: 3k+1 points for k pieces.
	Points []Point `json:"points"`
	Spline bool    `json:"spline,omitempty"`
	// Reversed marks an edge drawn against the ranking: an edge that
	// closed a cycle, or an appended edge pointing up.
	Reversed bool `json:"reversed,omitempty"`
}

// Layout places a [Graph]: Nodes and Edges are parallel to the graph's.
type Layout struct {
	Nodes []Box   `json:"nodes"`
	Edges []Route `json:"edges"`
	// Width and Height span every node and route, with a margin.
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// margin is the room left around a drawing.
const margin = 8

// overlaps reports whether two boxes share interior area.
func (b Box) overlaps(c Box) bool {
	const eps = 1e-6
	return math.Abs(b.X-c.X) < (b.W+c.W)/2-eps && math.Abs(b.Y-c.Y) < (b.H+c.H)/2-eps
}

// Overlapping returns the index pairs of nodes whose boxes overlap, in
// ascending order. It takes O(n log n + k) time for k pairs found among
// boxes whose x extents intersect.
func (l *Layout) Overlapping() [][2]int {
	idx := sortedByLeft(l.Nodes)
	var out [][2]int
	for a, i := range idx {
		bi := l.Nodes[i]
		for _, j := range idx[a+1:] {
			bj := l.Nodes[j]
			if bj.X-bj.W/2 >= bi.X+bi.W/2 {
				break
			}
			if bi.overlaps(bj) {
				out = append(out, [2]int{min(i, j), max(i, j)})
			}
		}
	}
	sortPairs(out)
	return out
}

// fit translates the layout so that its top-left corner sits at the margin
// and sets Width and Height.
func (l *Layout) fit() {
	minX, minY, maxX, maxY := l.bounds()
	if math.IsInf(minX, 1) {
		l.Width, l.Height = 2*margin, 2*margin
		return
	}
	dx, dy := margin-minX, margin-minY
	for i := range l.Nodes {
		l.Nodes[i].X += dx
		l.Nodes[i].Y += dy
	}
	for i := range l.Edges {
		for k := range l.Edges[i].Points {
			l.Edges[i].Points[k].X += dx
			l.Edges[i].Points[k].Y += dy
		}
	}
	l.Width, l.Height = maxX-minX+2*margin, maxY-minY+2*margin
}

// bounds returns the extent of every node box and route point.
func (l *Layout) bounds() (minX, minY, maxX, maxY float64) {
	minX, minY = math.Inf(1), math.Inf(1)
	maxX, maxY = math.Inf(-1), math.Inf(-1)
	for _, b := range l.Nodes {
		minX, maxX = min(minX, b.X-b.W/2), max(maxX, b.X+b.W/2)
		minY, maxY = min(minY, b.Y-b.H/2), max(maxY, b.Y+b.H/2)
	}
	for _, r := range l.Edges {
		for _, p := range r.Points {
			minX, maxX = min(minX, p.X), max(maxX, p.X)
			minY, maxY = min(minY, p.Y), max(maxY, p.Y)
		}
	}
	return minX, minY, maxX, maxY
}

// sortedByLeft returns node indices ordered by the left edge of their box,
// ties by index.
func sortedByLeft(boxes []Box) []int {
	idx := make([]int, len(boxes))
	left := make([]float64, len(boxes))
	for i, b := range boxes {
		idx[i], left[i] = i, b.X-b.W/2
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(left[a], left[b]); c != 0 {
			return c
		}
		return a - b
	})
	return idx
}

// sortPairs sorts index pairs in ascending order.
func sortPairs(ps [][2]int) {
	sort.Slice(ps, func(a, b int) bool {
		if ps[a][0] != ps[b][0] {
			return ps[a][0] < ps[b][0]
		}
		return ps[a][1] < ps[b][1]
	})
}
