package graphviz

import (
	"errors"
	"fmt"
	"sort"
)

// Attrs are free-form attributes of a node, an edge or a graph. The keys
// "kind" and "state" select a style (see [StyleOf]); all attributes are
// written to DOT and, as data- attributes, to SVG.
type Attrs map[string]string

// Node is a vertex of a [Graph].
type Node struct {
	// ID identifies the node; it must be unique and not empty.
	ID string `json:"id"`
	// Label is the text drawn in the node; the ID when empty.
	Label string `json:"label,omitempty"`
	// Seq orders nodes in time, such as an episode's start position. The
	// time-ordered ranking keeps ranks non-decreasing in Seq.
	Seq int64 `json:"seq,omitempty"`
	// Attrs holds the node's attributes.
	Attrs Attrs `json:"attrs,omitempty"`
}

// Edge is a directed edge of a [Graph], from one node ID to another.
type Edge struct {
	From string `json:"from"`
	To   string `json:"to"`
	// Label is optional text drawn at the edge's middle.
	Label string `json:"label,omitempty"`
	// Attrs holds the edge's attributes.
	Attrs Attrs `json:"attrs,omitempty"`
}

// Graph is a directed graph with attributes. The order of Nodes and Edges
// is the input order that layouts use to break ties; exports sort them.
type Graph struct {
	// Name names the graph in DOT and SVG output.
	Name  string `json:"name,omitempty"`
	Attrs Attrs  `json:"attrs,omitempty"`
	Nodes []Node `json:"nodes"`
	Edges []Edge `json:"edges"`
}

// Errors returned for malformed graphs.
var (
	ErrEmptyID       = errors.New("graphviz: empty node id")
	ErrDuplicateNode = errors.New("graphviz: duplicate node id")
	ErrUnknownNode   = errors.New("graphviz: edge names an unknown node")
)

// text returns the label drawn for the node.
func (n *Node) text() string {
	if n.Label != "" {
		return n.Label
	}
	return n.ID
}

// Index maps node IDs to their positions in g.Nodes. It returns an error
// naming the first empty or repeated ID.
func (g *Graph) Index() (map[string]int, error) {
	pos := make(map[string]int, len(g.Nodes))
	for i := range g.Nodes {
		id := g.Nodes[i].ID
		if id == "" {
			return nil, fmt.Errorf("node %d: %w", i, ErrEmptyID)
		}
		if j, dup := pos[id]; dup {
			return nil, fmt.Errorf("node %d %q (also node %d): %w", i, id, j, ErrDuplicateNode)
		}
		pos[id] = i
	}
	return pos, nil
}

// endpoints resolves every edge to node positions.
func (g *Graph) endpoints(pos map[string]int) ([][2]int, error) {
	out := make([][2]int, len(g.Edges))
	for i, e := range g.Edges {
		u, ok := pos[e.From]
		if !ok {
			return nil, fmt.Errorf("edge %d %q -> %q: %w: %q", i, e.From, e.To, ErrUnknownNode, e.From)
		}
		v, ok := pos[e.To]
		if !ok {
			return nil, fmt.Errorf("edge %d %q -> %q: %w: %q", i, e.From, e.To, ErrUnknownNode, e.To)
		}
		out[i] = [2]int{u, v}
	}
	return out, nil
}

// resolve validates g and returns its node index and edge endpoints.
func (g *Graph) resolve() (map[string]int, [][2]int, error) {
	pos, err := g.Index()
	if err != nil {
		return nil, nil, err
	}
	ends, err := g.endpoints(pos)
	if err != nil {
		return nil, nil, err
	}
	return pos, ends, nil
}

// sortedKeys returns the keys of a in ascending order.
func sortedKeys(a Attrs) []string {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
