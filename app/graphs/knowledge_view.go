package graphs

import (
	"context"
	"math"
	"strconv"
	"time"

	"ctxscope/graphviz"
)

// KnowledgeView is a laid-out knowledge graph (or ego graph) as the
// frontend draws it: positions come from Go, the browser only renders.
type KnowledgeView struct {
	Center string          `json:"center"` // the ego graph's centre, "" for the whole graph
	Hops   int             `json:"hops"`
	Nodes  []KnowledgeNode `json:"nodes"`
	Edges  []KnowledgeEdge `json:"edges"`
	// Total is the number of entities in the whole graph; Truncated is
	// true when an ego graph hit its node limit.
	Total     int  `json:"total"`
	Truncated bool `json:"truncated"`
}

// KnowledgeNode is an entity placed by the layout.
type KnowledgeNode struct {
	ID      string  `json:"id"`
	Label   string  `json:"label"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	Degree  int     `json:"degree"`
	Origin  string  `json:"origin"`
	Aliases string  `json:"aliases,omitempty"`
	Hop     int     `json:"hop"` // distance from the centre; 0 in the whole graph
}

// KnowledgeEdge is a relation with what the time slider and the labels
// need.
type KnowledgeEdge struct {
	ID        string `json:"id"`
	From      string `json:"from"`
	To        string `json:"to"`
	Label     string `json:"label"`
	Time      string `json:"time,omitempty"`
	Gran      string `json:"gran,omitempty"`
	Start     int64  `json:"start,omitempty"` // the time's first instant, Unix milliseconds; 0 when not normalized
	Condition string `json:"condition,omitempty"`
	Origin    string `json:"origin"`
	Session   int    `json:"session,omitempty"`
}

// LayoutKnowledge lays out g, a graph from [Knowledge], with the force
// layout (seed fixed, so the same graph always looks the same): the whole
// graph when center is "", else the ego graph of center within hops,
// at most limit nodes (0: no limit), cut with x.
func LayoutKnowledge(ctx context.Context, g *graphviz.Graph, x *graphviz.EgoIndex, center string, hops, limit int) (*KnowledgeView, error) {
	return layoutKnowledge(ctx, g, x, center, hops, limit, graphviz.ForceOptions{Seed: 1})
}

// LayoutSession lays out the knowledge graph of an agent session: the
// whole graph, with a stronger pull to the centre than LayoutKnowledge,
// so that the small components a session has (a task with its one
// command) stay near the main one instead of framing it from afar.
func LayoutSession(ctx context.Context, g *graphviz.Graph) (*KnowledgeView, error) {
	return layoutKnowledge(ctx, g, nil, "", 0, 0, graphviz.ForceOptions{Seed: 1, Gravity: sessionGravity})
}

// sessionGravity is LayoutSession's pull to the centre.
const sessionGravity = 8

func layoutKnowledge(ctx context.Context, g *graphviz.Graph, x *graphviz.EgoIndex, center string, hops, limit int, opt graphviz.ForceOptions) (*KnowledgeView, error) {
	sub := g
	if center != "" {
		var err error
		if sub, err = x.Ego(center, hops, limit); err != nil {
			return nil, err
		}
		opt.Center = center
	}
	l, err := graphviz.ForceContext(ctx, sub, opt)
	if err != nil {
		return nil, err
	}
	v := &KnowledgeView{Center: center, Hops: hops, Total: len(g.Nodes), Nodes: make([]KnowledgeNode, len(sub.Nodes)), Edges: make([]KnowledgeEdge, len(sub.Edges))}
	v.Truncated = center != "" && limit > 0 && len(sub.Nodes) >= limit
	for i, n := range sub.Nodes {
		b := l.Nodes[i]
		deg, _ := strconv.Atoi(n.Attrs["degree"])
		hop, _ := strconv.Atoi(n.Attrs["hop"])
		v.Nodes[i] = KnowledgeNode{ID: n.ID, Label: n.Label, X: round(b.X), Y: round(b.Y), Degree: deg, Origin: n.Attrs["origin"], Aliases: n.Attrs["aliases"], Hop: hop}
	}
	for i, e := range sub.Edges {
		a := e.Attrs
		s, _ := strconv.Atoi(a["session"])
		ke := KnowledgeEdge{ID: a["id"], From: e.From, To: e.To, Label: e.Label, Time: a["time"], Gran: a["gran"], Condition: a["condition"], Origin: a["origin"], Session: s}
		if t, err := time.Parse(time.RFC3339, a["start"]); err == nil {
			ke.Start = t.UnixMilli()
		}
		v.Edges[i] = ke
	}
	return v, nil
}

func round(f float64) float64 { return math.Round(f*10) / 10 }
