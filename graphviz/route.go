package graphviz

// chainRoute draws an edge through its chain of vertices, top to bottom:
// from the bottom of the upper node, through each virtual vertex, to the
// top of the lower node; reversed, it runs bottom to top.
func chainRoute(chain []int, xs, ys, h []float64, reversed bool) Route {
	pts := make([]Point, len(chain))
	for i, v := range chain {
		pts[i] = Point{xs[v], ys[v]}
	}
	pts[0].Y += h[chain[0]] / 2
	last := chain[len(chain)-1]
	pts[len(pts)-1].Y -= h[last] / 2
	if reversed {
		for a, b := 0, len(pts)-1; a < b; a, b = a+1, b-1 {
			pts[a], pts[b] = pts[b], pts[a]
		}
	}
	return Route{Points: pts, Reversed: reversed}
}

// loopRoute draws a self-loop on the right side of b.
func loopRoute(b Box) Route {
	x, reach := b.X+b.W/2, min(b.H/2, 18)
	return Route{Points: []Point{
		{x, b.Y - b.H/4}, {x + reach, b.Y - b.H/4}, {x + reach, b.Y + b.H/4}, {x, b.Y + b.H/4},
	}}
}

// smooth turns a polyline into a Catmull-Rom curve through the same
// points, as cubic Bézier control points.
func (r Route) smooth() Route {
	if r.Spline || len(r.Points) < 2 {
		return r
	}
	p := r.Points
	at := func(i int) Point { return p[max(0, min(len(p)-1, i))] }
	out := make([]Point, 0, 3*(len(p)-1)+1)
	out = append(out, p[0])
	for i := 0; i+1 < len(p); i++ {
		a, b, c, d := at(i-1), p[i], p[i+1], at(i+2)
		out = append(out,
			Point{b.X + (c.X-a.X)/6, b.Y + (c.Y-a.Y)/6},
			Point{c.X - (d.X-b.X)/6, c.Y - (d.Y-b.Y)/6},
			c)
	}
	return Route{Points: out, Spline: true, Reversed: r.Reversed}
}

// polyline returns the route as a polyline, sampling each Bézier piece
// of a spline at 16 points.
func (r Route) polyline() []Point {
	if !r.Spline {
		return r.Points
	}
	const steps = 16
	p := r.Points
	out := []Point{p[0]}
	for i := 0; i+3 < len(p); i += 3 {
		for s := 1; s <= steps; s++ {
			t := float64(s) / steps
			u := 1 - t
			a, b, c, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
			out = append(out, Point{
				a*p[i].X + b*p[i+1].X + c*p[i+2].X + d*p[i+3].X,
				a*p[i].Y + b*p[i+1].Y + c*p[i+2].Y + d*p[i+3].Y,
			})
		}
	}
	return out
}

// xAt returns the x coordinate where the route first meets the
// horizontal line at y, and false if it never does.
func (r Route) xAt(y float64) (float64, bool) {
	pts := r.polyline()
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		if (a.Y-y)*(b.Y-y) > 0 {
			continue
		}
		if a.Y == b.Y {
			return a.X, true
		}
		return a.X + (b.X-a.X)*(y-a.Y)/(b.Y-a.Y), true
	}
	return 0, false
}
