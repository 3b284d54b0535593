package cwl

import (
	"errors"
	"fmt"
	"sort"

	"github.com/dominikbraun/graph"
)

// Edge attribute values of the episode graph.
const (
	EdgeDependsOn = "depends_on" // act → expl: the act episode used what the expl episode found
)

// ErrBadDependency is returned when an edge would not go from an earlier
// exploration episode to an action episode.
var ErrBadDependency = errors.New("cwl: a dependency must point from an act episode to an earlier expl episode")

// Graph is the episode graph: one vertex per episode, typed edges from
// each expl episode to the act episodes that depend on it. It is
// acyclic by construction and append-only: episodes and edges are added in
// order and never removed, since eviction changes what an episode keeps
// in context, not the graph.
type Graph struct {
	g          graph.Graph[int, int]
	eps        []Episode
	dependents [][]int // expl id → act ids, ascending
}

// NewGraph returns an empty episode graph.
func NewGraph() *Graph {
	return &Graph{g: graph.New(graph.IntHash, graph.Directed(), graph.Acyclic(), graph.PreventCycles())}
}

// BuildGraph adds every episode of eps to a new graph, in order.
func BuildGraph(eps *Episodes) (*Graph, error) {
	g := NewGraph()
	for _, e := range eps.List {
		if err := g.Add(e); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// Add appends an episode. Its id must be the next one, and each of its
// dependencies an earlier expl episode.
func (g *Graph) Add(e Episode) error {
	if e.ID != len(g.eps) {
		return fmt.Errorf("cwl: episode %q has id %d, want %d (the graph is append-only)", e.Name, e.ID, len(g.eps))
	}
	if err := g.g.AddVertex(e.ID, graph.VertexAttribute("kind", e.Kind), graph.VertexAttribute("name", e.Name)); err != nil {
		return fmt.Errorf("cwl: add episode %q: %w", e.Name, err)
	}
	g.eps = append(g.eps, e)
	g.dependents = append(g.dependents, nil)
	for _, d := range e.Deps {
		if d < 0 || d >= e.ID || g.eps[d].Kind != KindExpl || e.Kind != KindAct {
			return fmt.Errorf("%w: %q → %q", ErrBadDependency, g.name(d), e.Name)
		}
		err := g.g.AddEdge(d, e.ID, graph.EdgeAttribute("type", EdgeDependsOn))
		if errors.Is(err, graph.ErrEdgeAlreadyExists) {
			continue
		}
		if err != nil {
			return fmt.Errorf("cwl: edge %q → %q: %w", g.eps[d].Name, e.Name, err)
		}
		g.dependents[d] = append(g.dependents[d], e.ID)
	}
	return nil
}

func (g *Graph) name(id int) string {
	if id >= 0 && id < len(g.eps) {
		return g.eps[id].Name
	}
	return fmt.Sprint(id)
}

// Len returns the number of episodes.
func (g *Graph) Len() int { return len(g.eps) }

// Episode returns episode id.
func (g *Graph) Episode(id int) Episode { return g.eps[id] }

// Dependents returns the act episodes that depend on episode id.
func (g *Graph) Dependents(id int) []int { return g.dependents[id] }

// Dependencies returns the expl episodes episode id depends on, read from
// the graph's edges.
func (g *Graph) Dependencies(id int) ([]int, error) {
	pm, err := g.g.PredecessorMap()
	if err != nil {
		return nil, err
	}
	var out []int
	for d := range pm[id] {
		out = append(out, d)
	}
	sort.Ints(out)
	return out, nil
}

// Edges returns every edge as (expl, act) pairs, sorted.
func (g *Graph) Edges() ([][2]int, error) {
	es, err := g.g.Edges()
	if err != nil {
		return nil, err
	}
	out := make([][2]int, len(es))
	for i, e := range es {
		out[i] = [2]int{e.Source, e.Target}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	return out, nil
}

// Order returns a topological order of the episodes, as the graph library
// computes it; it fails only if the graph had a cycle, which Add prevents.
func (g *Graph) Order() ([]int, error) {
	return graph.StableTopologicalSort(g.g, func(a, b int) bool { return a < b })
}

// Present returns how many episodes have started within the first n
// messages: the graph as a request of n input messages knows it. Episodes
// are added in start order, so the graph at any request is a prefix.
func (g *Graph) Present(n int) int {
	return sort.Search(len(g.eps), func(i int) bool { return g.eps[i].Start >= n })
}

// Active returns the episodes open at a request of n input messages.
func (g *Graph) Active(n int) []int {
	var out []int
	for i := range g.Present(n) {
		if g.eps[i].Open(n) {
			out = append(out, i)
		}
	}
	return out
}
