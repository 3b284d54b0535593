package graphs

import (
	"strconv"
	"time"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
	"ctxscope/graphviz"
)

// Episode node states, the "state" attribute of [Episodes] nodes.
const (
	StateOpen     = "open"     // started and not yet ended at the request shown
	StateClosed   = "closed"   // ended, and whole in context
	StateStripped = "stripped" // partly evicted: the "level" attribute says how far (1-3)
	StateEvicted  = "evicted"  // fully evicted (level 4)
	StateMissing  = "missing"  // named as a dependency but never started
)

// Episodes returns the episode DAG of one replay context as it stands at a
// request whose input holds the context's first n messages: a node per
// declared or inferred episode in start order (unannotated runs are left
// out), and an edge from each expl episode to every act that depends on
// it. levels, when not nil, is each episode's eviction level at that
// request (cwl.ContextView.Levels), which sets the node's state.
//
// A node's ID is the episode's name, suffixed "#2", "#3"... when a name is
// reused. A dependency on a name that no episode has gets a node of state
// "missing". Node attributes: kind, state, level (when stripped or
// evicted), inferred ("true"), episode (its id in the context), start and
// end (message indices), description, and time and end_time (RFC 3339)
// when the messages carry times. Seq is the start index, so the
// time-ordered ranking follows start order.
func Episodes(eps *cwl.Episodes, n int, levels []int, msgs []*session.Message) *graphviz.Graph {
	g := &graphviz.Graph{Name: "episodes"}
	nodeOf := map[int]string{} // episode id -> node id
	uses := map[string]int{}
	for i := range eps.List {
		e := &eps.List[i]
		if e.Kind == cwl.KindUnannotated || e.Start >= n {
			continue
		}
		id := e.Name
		if uses[e.Name]++; uses[e.Name] > 1 {
			id += "#" + strconv.Itoa(uses[e.Name])
		}
		nodeOf[e.ID] = id
		level := 0
		if i < len(levels) {
			level = levels[i]
		}
		g.Nodes = append(g.Nodes, graphviz.Node{ID: id, Label: id, Seq: int64(e.Start), Attrs: episodeAttrs(e, n, level, msgs)})
	}
	missing := map[string]bool{}
	for i := range eps.List {
		e := &eps.List[i]
		to, ok := nodeOf[e.ID]
		if !ok {
			continue
		}
		resolved := map[string]bool{}
		for _, d := range e.Deps {
			if from, ok := nodeOf[d]; ok {
				g.Edges = append(g.Edges, graphviz.Edge{From: from, To: to, Attrs: graphviz.Attrs{"kind": "dependency"}})
				resolved[eps.List[d].Name] = true
			}
		}
		for _, name := range e.Dependencies {
			if resolved[name] || name == "" {
				continue
			}
			if !missing[name] && uses[name] == 0 {
				missing[name] = true
				g.Nodes = append(g.Nodes, graphviz.Node{ID: name, Label: name, Seq: -1, Attrs: graphviz.Attrs{"state": StateMissing}})
			}
			if uses[name] == 0 {
				g.Edges = append(g.Edges, graphviz.Edge{From: name, To: to, Attrs: graphviz.Attrs{"kind": "dependency"}})
			}
		}
	}
	return g
}

func episodeAttrs(e *cwl.Episode, n, level int, msgs []*session.Message) graphviz.Attrs {
	a := graphviz.Attrs{"kind": e.Kind, "episode": strconv.Itoa(e.ID), "start": strconv.Itoa(e.Start), "end": strconv.Itoa(min(e.End, n-1))}
	switch {
	case level >= 4:
		a["state"], a["level"] = StateEvicted, strconv.Itoa(level)
	case level > 0:
		a["state"], a["level"] = StateStripped, strconv.Itoa(level)
	case e.Open(n):
		a["state"] = StateOpen
	default:
		a["state"] = StateClosed
	}
	if e.Inferred {
		a["inferred"] = "true"
	}
	if e.Description != "" {
		a["description"] = e.Description
	}
	if t := timeAt(msgs, e.Start); !t.IsZero() {
		a["time"] = t.UTC().Format(time.RFC3339)
	}
	if t := timeAt(msgs, e.End); !e.Open(n) && !t.IsZero() {
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
