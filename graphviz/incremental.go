package graphviz

import (
	"fmt"
	"math"
	"slices"
)

// Incremental keeps a layered layout stable while its graph grows, as when
// following a live session or stepping forward through one: appended
// nodes are fitted in around the existing ones, which never move until
// [Incremental.Relayout] is called. It is not safe for concurrent use.
type Incremental struct {
	opt  LayeredOptions
	g    *Graph
	pos  map[string]int
	l    *Layout
	mid  []float64 // rank -> centre line
	tall []float64 // rank -> height of its tallest node
	// obstacles are the boxes new nodes must avoid: every node, and a
	// thin box wherever an edge crosses a rank's line.
	obstacles []Box
}

// NewIncremental lays g out with [Layered] and keeps the layout for
// appending. The Incremental takes its own copy of g's node and edge
// slices.
func NewIncremental(g *Graph, opt LayeredOptions) (*Incremental, error) {
	s := &Incremental{opt: opt.withDefaults(), g: &Graph{Name: g.Name, Attrs: g.Attrs, Nodes: slices.Clone(g.Nodes), Edges: slices.Clone(g.Edges)}}
	return s, s.Relayout()
}

// Graph returns the graph laid out so far. It must not be modified.
func (s *Incremental) Graph() *Graph { return s.g }

// Layout returns the current layout, parallel to [Incremental.Graph]. It
// must not be modified; appends extend it in place.
func (s *Incremental) Layout() *Layout { return s.l }

// Relayout lays the whole graph out afresh, so existing nodes may move.
func (s *Incremental) Relayout() error {
	pos, ends, err := s.g.resolve()
	if err != nil {
		return err
	}
	l, _, err := layered(s.g, ends, s.opt)
	if err != nil {
		return err
	}
	s.pos, s.l = pos, l
	s.mid, s.tall, s.obstacles = nil, nil, nil
	for i, b := range s.l.Nodes {
		s.noteRank(b.Rank, b.Y, b.H)
		s.obstacles = append(s.obstacles, s.l.Nodes[i])
	}
	s.fillRanks()
	for i, e := range ends {
		s.reserveRoute(s.l.Edges[i], s.l.Nodes[e[0]], s.l.Nodes[e[1]])
	}
	return nil
}

// noteRank records a node of height h centred at y on rank r.
func (s *Incremental) noteRank(r int, y, h float64) {
	for len(s.mid) <= r {
		s.mid = append(s.mid, math.NaN())
		s.tall = append(s.tall, 0)
	}
	if math.IsNaN(s.mid[r]) {
		s.mid[r] = y
	}
	s.tall[r] = max(s.tall[r], h)
}

// fillRanks gives ranks without nodes a centre line between their
// neighbours'.
func (s *Incremental) fillRanks() {
	for r := range s.mid {
		if !math.IsNaN(s.mid[r]) {
			continue
		}
		prev, next := r-1, r+1
		for next < len(s.mid) && math.IsNaN(s.mid[next]) {
			next++
		}
		y := s.mid[prev] + s.opt.RankSep // a rank 0 without nodes cannot occur
		if next < len(s.mid) {
			y = s.mid[prev] + (s.mid[next]-s.mid[prev])/float64(next-prev)
		}
		s.mid[r] = y
	}
}

// rankLine returns the centre line of rank r, extending the ranks below
// the lowest one by the rank separation.
func (s *Incremental) rankLine(r int, h float64) float64 {
	for len(s.mid) <= r {
		n := len(s.mid)
		y := s.opt.RankSep + h/2 + margin
		if n > 0 {
			y = s.mid[n-1] + s.tall[n-1]/2 + s.opt.RankSep + h/2
		}
		s.mid = append(s.mid, y)
		s.tall = append(s.tall, h)
	}
	return s.mid[r]
}

// reserveRoute marks where a route crosses the lines of the ranks between
// its ends, so that appended nodes are not put on top of it.
func (s *Incremental) reserveRoute(r Route, a, b Box) {
	lo, hi := min(a.Rank, b.Rank), max(a.Rank, b.Rank)
	for k := lo + 1; k < hi && k < len(s.mid); k++ {
		if x, ok := r.xAt(s.mid[k]); ok {
			s.obstacles = append(s.obstacles, Box{X: x, Y: s.mid[k], W: 1, H: s.tall[k]})
		}
	}
}

// Append adds nodes and edges to the graph and places the new nodes
// without moving any existing one. A new node goes one rank below its
// lowest predecessor (and, with [TimeOrdered], no higher than the lowest
// rank so far), as near the mean x of its neighbours as free room allows.
// An edge that cannot point down-rank without moving existing nodes is
// drawn against the ranking and marked Reversed. The Order of an appended
// node counts the nodes left of it when it was placed; existing Orders are
// not renumbered until a relayout. On error (a repeated or empty ID, an
// edge to an unknown node) nothing changes.
func (s *Incremental) Append(nodes []Node, edges []Edge) error {
	next := &Graph{Nodes: append(slices.Clone(s.g.Nodes), nodes...), Edges: append(slices.Clone(s.g.Edges), edges...)}
	pos, ends, err := next.resolve()
	if err != nil {
		return fmt.Errorf("append: %w", err)
	}
	old, oldEdges := len(s.g.Nodes), len(s.g.Edges)
	s.g.Nodes, s.g.Edges, s.pos = next.Nodes, next.Edges, pos
	order := newOrder(next, old, ends)
	ranks := s.appendRanks(old, order, ends)
	s.l.Nodes = append(s.l.Nodes, make([]Box, len(nodes))...)
	placed := make([]bool, len(next.Nodes))
	for v := 0; v < old; v++ {
		placed[v] = true
	}
	adj := neighbours(len(next.Nodes), ends)
	for _, v := range order {
		s.placeNode(v, ranks[v], adj[v], placed)
		placed[v] = true
	}
	for i := oldEdges; i < len(ends); i++ {
		s.routeNew(ends[i])
	}
	_, _, maxX, maxY := s.l.bounds()
	s.l.Width, s.l.Height = max(s.l.Width, maxX+margin), max(s.l.Height, maxY+margin)
	return nil
}
