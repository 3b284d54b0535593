package graphs

import (
	"strconv"
	"time"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
	"ctxscope/graphviz"
)

// Episode node states, as attributes of [Episodes] nodes.
const (
	StateOpen    = "open"    // started and not yet ended
	StateClosed  = "closed"  // ended
	StateMissing = "missing" // named as a dependency but never started
)

// Episodes returns the episode DAG of segments found in msgs: one node per
// segment in start order, and an edge from each dependency to the episode
// that declared it (exploration to action). A node's ID is the episode's
// name, suffixed "#2", "#3"... when a name is reused; a dependency names
// the latest episode of that name started before the dependent one (or
// the first one after it). A dependency on a name never started gets a
// node of state "missing". Node attributes: kind, state, start and end
// (message indices), description, and time and end_time (RFC 3339) when
// the messages carry times. Seq is the start index, so that the
// time-ordered ranking follows start order.
func Episodes(segs []cwl.Segment, msgs []*session.Message) *graphviz.Graph {
	g := &graphviz.Graph{Name: "episodes"}
	byName := map[string][]int{} // name -> node indices in start order
	for _, s := range segs {
		id := s.Name
		if n := len(byName[s.Name]); n > 0 {
			id += "#" + strconv.Itoa(n+1)
		}
		byName[s.Name] = append(byName[s.Name], len(g.Nodes))
		g.Nodes = append(g.Nodes, graphviz.Node{ID: id, Label: id, Seq: int64(s.Start), Attrs: segmentAttrs(s, msgs)})
	}
	missing := map[string]bool{}
	for i, s := range segs {
		for _, dep := range s.Dependencies {
			from, ok := resolve(g, byName[dep], s.Start)
			if !ok {
				from = dep
				if !missing[dep] && !hasID(g, dep) {
					missing[dep] = true
					g.Nodes = append(g.Nodes, graphviz.Node{ID: dep, Seq: -1, Attrs: graphviz.Attrs{"state": StateMissing}})
				}
			}
			g.Edges = append(g.Edges, graphviz.Edge{From: from, To: g.Nodes[i].ID, Attrs: graphviz.Attrs{"kind": "dependency"}})
		}
	}
	return g
}

// resolve picks, among the nodes of one name, the latest started before
// start, or else the first.
func resolve(g *graphviz.Graph, nodes []int, start int) (string, bool) {
	if len(nodes) == 0 {
		return "", false
	}
	best := nodes[0]
	for _, k := range nodes {
		if g.Nodes[k].Seq < int64(start) {
			best = k
		}
	}
	return g.Nodes[best].ID, true
}

func hasID(g *graphviz.Graph, id string) bool {
	for _, n := range g.Nodes {
		if n.ID == id {
			return true
		}
	}
	return false
}

func segmentAttrs(s cwl.Segment, msgs []*session.Message) graphviz.Attrs {
	a := graphviz.Attrs{"kind": s.Kind, "state": StateOpen, "start": strconv.Itoa(s.Start), "end": strconv.Itoa(s.End)}
	if s.Completed {
		a["state"] = StateClosed
	}
	if s.Description != "" {
		a["description"] = s.Description
	}
	if t := timeAt(msgs, s.Start); !t.IsZero() {
		a["time"] = t.UTC().Format(time.RFC3339)
	}
	if t := timeAt(msgs, s.End); s.Completed && !t.IsZero() {
		a["end_time"] = t.UTC().Format(time.RFC3339)
	}
	return a
}

func timeAt(msgs []*session.Message, i int) time.Time {
	if i < 0 || i >= len(msgs) {
		return time.Time{}
	}
	return msgs[i].Time
}
