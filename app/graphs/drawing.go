package graphs

import "ctxscope/graphviz"

// StateFuture marks a node of a [Drawing] whose episode has not started
// by the request shown.
const StateFuture = "future"

// DrawnNode is a node placed in a [Drawing]: its box centre and size, in
// points, and its attributes at the request shown.
type DrawnNode struct {
	ID    string         `json:"id"`
	Label string         `json:"label"`
	X     float64        `json:"x"`
	Y     float64        `json:"y"`
	W     float64        `json:"w"`
	H     float64        `json:"h"`
	Attrs graphviz.Attrs `json:"attrs"`
}

// DrawnEdge is an edge routed in a [Drawing].
type DrawnEdge struct {
	From   string           `json:"from"`
	To     string           `json:"to"`
	Points []graphviz.Point `json:"points"`
	Spline bool             `json:"spline,omitempty"`
	// Future marks an edge to or from a node that has not started yet.
	Future bool `json:"future,omitempty"`
}

// Drawing is a laid-out graph for a frontend to draw with its own
// primitives: coordinates and attributes, no markup.
type Drawing struct {
	Width  float64     `json:"width"`
	Height float64     `json:"height"`
	Nodes  []DrawnNode `json:"nodes"`
	Edges  []DrawnEdge `json:"edges"`
}

// Draw places the nodes of full as l lays them out (l must be a layout of
// full), with the attributes they have in at: the same graph as it stands
// at one request. Nodes of full missing from at are marked
// [StateFuture], so that a drawing that follows the requests keeps every
// node in place.
func Draw(full *graphviz.Graph, l *graphviz.Layout, at *graphviz.Graph) *Drawing {
	now := map[string]graphviz.Attrs{}
	for _, n := range at.Nodes {
		now[n.ID] = n.Attrs
	}
	d := &Drawing{Width: l.Width, Height: l.Height, Nodes: make([]DrawnNode, len(full.Nodes)), Edges: make([]DrawnEdge, len(full.Edges))}
	for i, n := range full.Nodes {
		b := l.Nodes[i]
		attrs, ok := now[n.ID]
		if !ok {
			attrs = graphviz.Attrs{}
			for k, v := range n.Attrs {
				attrs[k] = v
			}
			delete(attrs, "level")
			attrs["state"] = StateFuture
		}
		d.Nodes[i] = DrawnNode{ID: n.ID, Label: n.Label, X: b.X, Y: b.Y, W: b.W, H: b.H, Attrs: attrs}
	}
	for i, e := range full.Edges {
		_, from := now[e.From]
		_, to := now[e.To]
		d.Edges[i] = DrawnEdge{From: e.From, To: e.To, Points: l.Edges[i].Points, Spline: l.Edges[i].Spline, Future: !from || !to}
	}
	return d
}
