package graphviz

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
)

// ForceOptions tune [Force]. The zero value is a sensible default.
type ForceOptions struct {
	// Seed fixes the initial placement; the same graph, options and seed
	// always give the same layout.
	Seed uint64
	// Iterations is the number of simulation steps; when zero it shrinks
	// from 300 for small graphs to 80 for ten thousand nodes, and is
	// halved around a Center, whose rings start the layout nearly settled.
	Iterations int
	// Theta is the Barnes–Hut accuracy (smaller is more exact), 1.2 when
	// zero.
	Theta float64
	// Scaling is ForceAtlas2's repulsion strength, 10 below 100 nodes
	// and 2 above when zero.
	Scaling float64
	// Gravity pulls nodes towards the centre, 1 when zero.
	Gravity float64
	// Center, when set, names a node pinned at the centre: the others
	// start on rings by their distance in hops from it, as for ego graphs.
	Center string
	// EdgeLength is the median edge length of the result in points, 120
	// when zero.
	EdgeLength float64
	// Sizing sets node sizes from labels.
	Sizing Sizing
}

func (o ForceOptions) withDefaults(n int) ForceOptions {
	if o.Iterations <= 0 {
		o.Iterations = int(max(80, min(300, 8000/math.Sqrt(float64(max(n, 1))))))
		if o.Center != "" {
			o.Iterations /= 2
		}
	}
	if o.Theta <= 0 {
		o.Theta = 1.2
	}
	if o.Scaling <= 0 {
		o.Scaling = 2
		if n < 100 {
			o.Scaling = 10
		}
	}
	if o.Gravity <= 0 {
		o.Gravity = 1
	}
	if o.EdgeLength <= 0 {
		o.EdgeLength = 120
	}
	o.Sizing = o.Sizing.withDefaults()
	return o
}

// Force lays g out with a ForceAtlas2-style simulation (Jacomy et al.,
// 2014): degree-weighted repulsion approximated with a Barnes–Hut tree,
// linear attraction along edges, gravity, and per-node adaptive speeds.
// Edge direction is ignored. The result is scaled to opt.EdgeLength,
// overlapping boxes are pushed apart, and edges are straight lines between
// node borders. Forces are computed on all cores, yet the result depends
// only on g and opt. It fails on the same malformed graphs as [Layered].
func Force(g *Graph, opt ForceOptions) (*Layout, error) {
	return ForceContext(context.Background(), g, opt)
}

// ForceContext is [Force] that stops between simulation steps, returning
// ctx's cause, once ctx ends: a layout of ten thousand nodes takes most of
// a second, and a caller that no longer wants it should not wait.
func ForceContext(ctx context.Context, g *Graph, opt ForceOptions) (*Layout, error) {
	pos, ends, err := g.resolve()
	if err != nil {
		return nil, err
	}
	n := len(g.Nodes)
	opt = opt.withDefaults(n)
	center := -1
	if opt.Center != "" {
		c, ok := pos[opt.Center]
		if !ok {
			return nil, ErrUnknownNode
		}
		center = c
	}
	sim := newSimulation(n, ends, opt, center)
	for it := 0; it < opt.Iterations; it++ {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		sim.step()
	}
	l := &Layout{Nodes: make([]Box, n), Edges: make([]Route, len(ends))}
	for i := range g.Nodes {
		w, h := opt.Sizing.Size(g.Nodes[i].text())
		l.Nodes[i] = Box{W: w, H: h}
	}
	sim.place(l, opt.EdgeLength)
	removeOverlaps(l.Nodes, center, 200)
	for i, e := range ends {
		if e[0] == e[1] {
			l.Edges[i] = loopRoute(l.Nodes[e[0]])
			continue
		}
		l.Edges[i] = straightRoute(l.Nodes[e[0]], l.Nodes[e[1]], StyleOf(g.Nodes[e[0]].Attrs).Shape, StyleOf(g.Nodes[e[1]].Attrs).Shape)
	}
	l.fit()
	return l, nil
}

// simulation is the state of a ForceAtlas2 run.
type simulation struct {
	opt          ForceOptions
	xs, ys, mass []float64
	fx, fy       []float64 // forces of this step
	px, py       []float64 // forces of the previous step
	ends         [][2]int
	center       int
	speed        float64
	tree         quadtree
}

func newSimulation(n int, ends [][2]int, opt ForceOptions, center int) *simulation {
	s := &simulation{opt: opt, ends: ends, center: center, speed: 1,
		xs: make([]float64, n), ys: make([]float64, n), mass: make([]float64, n),
		fx: make([]float64, n), fy: make([]float64, n), px: make([]float64, n), py: make([]float64, n)}
	for i := range s.mass {
		s.mass[i] = 1
	}
	for _, e := range ends {
		if e[0] != e[1] {
			s.mass[e[0]]++
			s.mass[e[1]]++
		}
	}
	s.initialPositions(opt.Seed)
	return s
}

// initialPositions scatters nodes uniformly in a disc from the seed, or,
// around a centre, on rings by hop distance.
func (s *simulation) initialPositions(seed uint64) {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	n := len(s.xs)
	var hops []int
	if s.center >= 0 {
		hops = hopDistances(n, s.ends, s.center)
	}
	radius := max(10, math.Sqrt(float64(n)*s.opt.Scaling))
	for i := range s.xs {
		a := r.Float64() * 2 * math.Pi
		d := radius * math.Sqrt(r.Float64())
		if hops != nil {
			d = 10 * float64(hops[i]) * (1 + 0.2*r.Float64())
		}
		s.xs[i], s.ys[i] = d*math.Cos(a), d*math.Sin(a)
	}
	if s.center >= 0 {
		s.xs[s.center], s.ys[s.center] = 0, 0
	}
}

// hopDistances returns each node's distance in undirected hops from src;
// unreachable nodes get one more than the farthest reachable one.
func hopDistances(n int, ends [][2]int, src int) []int {
	adj := make([][]int, n)
	for _, e := range ends {
		adj[e[0]] = append(adj[e[0]], e[1])
		adj[e[1]] = append(adj[e[1]], e[0])
	}
	dist := make([]int, n)
	for i := range dist {
		dist[i] = -1
	}
	dist[src] = 0
	queue, far := []int{src}, 0
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		for _, w := range adj[v] {
			if dist[w] < 0 {
				dist[w] = dist[v] + 1
				far = max(far, dist[w])
				queue = append(queue, w)
			}
		}
	}
	for i := range dist {
		if dist[i] < 0 {
			dist[i] = far + 1
		}
	}
	return dist
}

// step computes the forces and moves every node once.
func (s *simulation) step() {
	s.px, s.fx = s.fx, s.px
	s.py, s.fy = s.fy, s.py
	s.tree.build(s.xs, s.ys, s.mass)
	s.repulseAndGravity()
	for _, e := range s.ends {
		a, b := e[0], e[1]
		dx, dy := s.xs[a]-s.xs[b], s.ys[a]-s.ys[b]
		s.fx[a], s.fy[a] = s.fx[a]-dx, s.fy[a]-dy
		s.fx[b], s.fy[b] = s.fx[b]+dx, s.fy[b]+dy
	}
	s.move()
}

// repulseAndGravity sets every node's force to its repulsion from all
// others plus gravity, splitting the nodes among the cores; each node's
// force is computed alone, so the split does not change the result.
func (s *simulation) repulseAndGravity() {
	n := len(s.xs)
	workers := min(runtime.GOMAXPROCS(0), max(1, n/256))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			var stack []int32
			for i := lo; i < hi; i++ {
				var fx, fy float64
				fx, fy, stack = s.tree.repulsion(i, s.opt.Scaling, s.opt.Theta, stack)
				if d := math.Hypot(s.xs[i], s.ys[i]); d > 0 {
					g := s.opt.Gravity * s.mass[i] / d
					fx, fy = fx-s.xs[i]*g, fy-s.ys[i]*g
				}
				s.fx[i], s.fy[i] = fx, fy
			}
		}()
	}
	wg.Wait()
}

// move applies ForceAtlas2's adaptive speeds: the global speed follows
// the ratio of traction to swinging, and each node slows down as its own
// force swings.
func (s *simulation) move() {
	var swinging, traction float64
	for i := range s.xs {
		sw := math.Hypot(s.fx[i]-s.px[i], s.fy[i]-s.py[i])
		tr := math.Hypot(s.fx[i]+s.px[i], s.fy[i]+s.py[i]) / 2
		swinging += s.mass[i] * sw
		traction += s.mass[i] * tr
	}
	jitter := 0.05 * math.Sqrt(float64(len(s.xs)))
	jitter = max(1, min(jitter, 10))
	if swinging > 0 {
		target := jitter * traction / swinging
		s.speed = min(target, 1.5*s.speed)
	}
	for i := range s.xs {
		if i == s.center {
			continue
		}
		sw := math.Hypot(s.fx[i]-s.px[i], s.fy[i]-s.py[i])
		f := math.Hypot(s.fx[i], s.fy[i])
		ns := 0.1 * s.speed / (1 + s.speed*math.Sqrt(sw))
		if f > 0 {
			ns = min(ns, 10/f)
		}
		s.xs[i] += s.fx[i] * ns
		s.ys[i] += s.fy[i] * ns
	}
}
