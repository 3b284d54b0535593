package graphviz

import (
	"math"
	"sort"
)

// place copies the simulation's positions into the boxes, scaled so that
// the median edge is edgeLength long (or, without edges, so that nodes
// are that far apart on average), and at least so far that the drawing
// has eight times the area of its boxes.
func (s *simulation) place(l *Layout, edgeLength float64) {
	var lengths []float64
	for _, e := range s.ends {
		if e[0] != e[1] {
			lengths = append(lengths, math.Hypot(s.xs[e[0]]-s.xs[e[1]], s.ys[e[0]]-s.ys[e[1]]))
		}
	}
	typical := 0.0
	if len(lengths) > 0 {
		sort.Float64s(lengths)
		typical = lengths[len(lengths)/2]
	}
	if typical <= 1e-9 && len(s.xs) > 1 {
		minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for i := range s.xs {
			minX, maxX = min(minX, s.xs[i]), max(maxX, s.xs[i])
			minY, maxY = min(minY, s.ys[i]), max(maxY, s.ys[i])
		}
		typical = math.Sqrt((maxX - minX) * (maxY - minY) / float64(len(s.xs)))
	}
	scale := 1.0
	if typical > 1e-9 {
		scale = edgeLength / typical
	}
	if area, need := s.spread(), boxArea(l.Nodes); area > 1e-18 && scale*scale*area < 8*need {
		scale = math.Sqrt(8 * need / area)
	}
	for i := range l.Nodes {
		l.Nodes[i].X, l.Nodes[i].Y = s.xs[i]*scale, s.ys[i]*scale
	}
}

// spread is the area of the simulation's bounding box.
func (s *simulation) spread() float64 {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := range s.xs {
		minX, maxX = min(minX, s.xs[i]), max(maxX, s.xs[i])
		minY, maxY = min(minY, s.ys[i]), max(maxY, s.ys[i])
	}
	return (maxX - minX) * (maxY - minY)
}

// boxArea sums the areas of the boxes with the gap around them.
func boxArea(boxes []Box) float64 {
	sum := 0.0
	for _, b := range boxes {
		sum += (b.W + overlapGap) * (b.H + overlapGap)
	}
	return sum
}

// overlapGap is the room removeOverlaps leaves between boxes.
const overlapGap = 6

// removeOverlaps pushes overlapping boxes apart, each pair along the axis
// where they overlap least, half the distance each (all of it for the
// partner of the pinned box), until none overlap or passes run out. Every
// eighth pass that still finds overlaps also spreads all positions by a
// tenth about the pinned box (or the origin), which separates any crowd
// that pushing alone would shuffle around. It reports whether it finished.
func removeOverlaps(boxes []Box, pinned, passes int) bool {
	for p := 0; p < passes; p++ {
		if p > 0 && p%4 == 0 {
			expand(boxes, pinned, 1.1)
		}
		idx := sortedByLeft(boxes)
		moved := false
		for a, i := range idx {
			for _, j := range idx[a+1:] {
				bi, bj := &boxes[i], &boxes[j]
				if bj.X-bj.W/2 >= bi.X+bi.W/2+overlapGap {
					break
				}
				if separate(bi, bj, i == pinned, j == pinned) {
					moved = true
				}
			}
		}
		if !moved {
			return true
		}
	}
	return false
}

// expand scales every position by f about the pinned box or the origin.
func expand(boxes []Box, pinned int, f float64) {
	var cx, cy float64
	if pinned >= 0 {
		cx, cy = boxes[pinned].X, boxes[pinned].Y
	}
	for i := range boxes {
		boxes[i].X = cx + (boxes[i].X-cx)*f
		boxes[i].Y = cy + (boxes[i].Y-cy)*f
	}
}

// separate moves a and b apart if they come closer than overlapGap, and
// reports whether it did.
func separate(a, b *Box, aPinned, bPinned bool) bool {
	dx, dy := b.X-a.X, b.Y-a.Y
	ox := (a.W+b.W)/2 + overlapGap - math.Abs(dx)
	oy := (a.H+b.H)/2 + overlapGap - math.Abs(dy)
	if ox <= 0 || oy <= 0 {
		return false
	}
	share := func(d float64) (float64, float64) {
		switch {
		case aPinned:
			return 0, d
		case bPinned:
			return d, 0
		}
		return d * 0.6, d * 0.6
	}
	if ox <= oy {
		ma, mb := share(ox)
		if dx < 0 {
			ma, mb = -ma, -mb
		}
		a.X, b.X = a.X-ma, b.X+mb
	} else {
		ma, mb := share(oy)
		if dy < 0 {
			ma, mb = -ma, -mb
		}
		a.Y, b.Y = a.Y-ma, b.Y+mb
	}
	return true
}

// straightRoute joins the borders of two boxes by a straight line.
func straightRoute(a, b Box, shapeA, shapeB string) Route {
	dx, dy := b.X-a.X, b.Y-a.Y
	if dx == 0 && dy == 0 {
		return Route{Points: []Point{{a.X, a.Y}, {b.X, b.Y}}}
	}
	ta := borderFraction(a, dx, dy, shapeA)
	tb := borderFraction(b, dx, dy, shapeB)
	if ta+tb >= 1 {
		ta, tb = 0, 0
	}
	return Route{Points: []Point{{a.X + ta*dx, a.Y + ta*dy}, {b.X - tb*dx, b.Y - tb*dy}}}
}

// borderFraction returns t such that the centre plus t·(dx, dy) lies on
// the border of box b drawn as shape.
func borderFraction(b Box, dx, dy float64, shape string) float64 {
	if shape == "ellipse" {
		return 1 / math.Hypot(dx/(b.W/2), dy/(b.H/2))
	}
	t := math.Inf(1)
	if dx != 0 {
		t = b.W / 2 / math.Abs(dx)
	}
	if dy != 0 {
		t = min(t, b.H/2/math.Abs(dy))
	}
	return t
}
