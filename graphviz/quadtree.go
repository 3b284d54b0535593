package graphviz

import "math"

// quadtree is a Barnes–Hut tree over weighted points: every cell knows the
// total mass and the centre of mass of the points inside it, so that a
// distant cell can stand for all of them.
type quadtree struct {
	cells []qcell
	next  []int32 // body -> next body in the same bucket, -1 at the end
	xs    []float64
	ys    []float64
	mass  []float64
}

// qcell is a square cell: a leaf holding a bucket of bodies (usually one;
// several only when points coincide below maxDepth), or an inner cell with
// up to four children.
type qcell struct {
	x0, y0, size float64
	mass, mx, my float64 // total mass and, once built, centre of mass (during the build, mass-weighted coordinate sums)
	child        [4]int32
	first        int32 // first body of a leaf's bucket, -1 for none
	inner        bool
}

// maxDepth bounds subdivision; points closer than the root size / 2^40
// share a bucket.
const maxDepth = 40

// build fills the tree with bodies at xs, ys weighing mass.
func (t *quadtree) build(xs, ys, mass []float64) {
	t.xs, t.ys, t.mass = xs, ys, mass
	t.cells = t.cells[:0]
	if cap(t.next) < len(xs) {
		t.next = make([]int32, len(xs))
	}
	t.next = t.next[:len(xs)]
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := range xs {
		minX, maxX = min(minX, xs[i]), max(maxX, xs[i])
		minY, maxY = min(minY, ys[i]), max(maxY, ys[i])
	}
	size := max(maxX-minX, maxY-minY, 1e-9) * 1.0001
	t.newCell(minX, minY, size)
	for b := range xs {
		t.insert(int32(b))
	}
	for i := range t.cells {
		c := &t.cells[i]
		if c.mass > 0 {
			c.mx, c.my = c.mx/c.mass, c.my/c.mass
		}
	}
}

func (t *quadtree) newCell(x0, y0, size float64) int32 {
	t.cells = append(t.cells, qcell{x0: x0, y0: y0, size: size, child: [4]int32{-1, -1, -1, -1}, first: -1})
	return int32(len(t.cells) - 1)
}

// quadrant returns which child of cell c contains point (x, y), and that
// child's corner.
func (t *quadtree) quadrant(c int32, x, y float64) (int, float64, float64) {
	cell := &t.cells[c]
	h := cell.size / 2
	q, x0, y0 := 0, cell.x0, cell.y0
	if x >= cell.x0+h {
		q, x0 = q+1, x0+h
	}
	if y >= cell.y0+h {
		q, y0 = q+2, y0+h
	}
	return q, x0, y0
}

func (t *quadtree) insert(b int32) {
	x, y, m := t.xs[b], t.ys[b], t.mass[b]
	c := int32(0)
	for depth := 0; ; depth++ {
		cell := &t.cells[c]
		cell.mass += m
		cell.mx += m * x
		cell.my += m * y
		switch {
		case !cell.inner && cell.first < 0:
			cell.first, t.next[b] = b, -1
			return
		case !cell.inner && depth >= maxDepth:
			t.next[b], cell.first = cell.first, b
			return
		case !cell.inner:
			old := cell.first
			cell.first, cell.inner = -1, true
			t.place(c, old)
		}
		q, x0, y0 := t.quadrant(c, x, y)
		child := t.cells[c].child[q]
		if child < 0 {
			child = t.newCell(x0, y0, t.cells[c].size/2)
			t.cells[c].child[q] = child
		}
		c = child
	}
}

// place moves a leaf's body (with any bucket mates, which coincide with
// it) into a new child of the cell c.
func (t *quadtree) place(c, b int32) {
	q, x0, y0 := t.quadrant(c, t.xs[b], t.ys[b])
	child := t.newCell(x0, y0, t.cells[c].size/2)
	t.cells[c].child[q] = child
	cell := &t.cells[child]
	cell.first = b
	for o := b; o >= 0; o = t.next[o] {
		cell.mass += t.mass[o]
		cell.mx += t.mass[o] * t.xs[o]
		cell.my += t.mass[o] * t.ys[o]
	}
}

// repulsion returns the ForceAtlas2 repulsion on body b, k·m_b·m_c/d for
// every other body c, pushing b away. Cells seen from farther than their
// size divided by theta count as one body at their centre of mass.
func (t *quadtree) repulsion(b int, k, theta float64, stack []int32) (fx, fy float64, _ []int32) {
	x, y, mb := t.xs[b], t.ys[b], t.mass[b]
	stack = append(stack[:0], 0)
	for len(stack) > 0 {
		c := &t.cells[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		if !c.inner {
			for o := c.first; o >= 0; o = t.next[o] {
				if int(o) != b {
					fx, fy = addRepulsion(fx, fy, x-t.xs[o], y-t.ys[o], k*mb*t.mass[o])
				}
			}
			continue
		}
		dx, dy := x-c.mx, y-c.my
		inside := x >= c.x0 && x < c.x0+c.size && y >= c.y0 && y < c.y0+c.size
		if !inside && c.size*c.size < theta*theta*(dx*dx+dy*dy) {
			fx, fy = addRepulsion(fx, fy, dx, dy, k*mb*c.mass)
			continue
		}
		for _, ch := range c.child {
			if ch >= 0 {
				stack = append(stack, ch)
			}
		}
	}
	return fx, fy, stack
}

// addRepulsion adds a force of strength/d along (dx, dy).
func addRepulsion(fx, fy, dx, dy, strength float64) (float64, float64) {
	d2 := dx*dx + dy*dy
	if d2 < 1e-18 {
		return fx, fy
	}
	f := strength / d2
	return fx + dx*f, fy + dy*f
}
