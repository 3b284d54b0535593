package graphs

import (
	"strconv"
	"strings"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/kg"
	"ctxscope/graphviz"
)

// Knowledge returns a memory's knowledge graph: a node per entity and an
// edge per relation, from subject to object, in the graph's own orders
// (entities by id, relations as inserted).
//
// Node attributes: kind ("entity"), origin (extracted, reviewed or
// imported), aliases (joined with "; ") and degree. Edge attributes: id,
// origin, time (the normalized value or the source's text), gran (day,
// month, season or year; absent for a time that does not normalize),
// start (the period's first instant, RFC 3339), condition, session, and
// passages (the provenance, joined with " "). The edge label is the
// predicate.
func Knowledge(m *memory.Memory) *graphviz.Graph {
	g := &graphviz.Graph{Name: "knowledge graph of " + m.ID}
	if m.Graph == nil {
		return g
	}
	degree := map[string]int{}
	rels := m.Graph.Relations()
	for _, r := range rels {
		degree[r.Subject]++
		if r.Object != r.Subject {
			degree[r.Object]++
		}
	}
	for _, e := range m.Graph.Entities() {
		a := graphviz.Attrs{"kind": "entity", "origin": string(e.Origin), "degree": strconv.Itoa(degree[e.ID])}
		if len(e.Aliases) > 0 {
			a["aliases"] = strings.Join(e.Aliases, "; ")
		}
		g.Nodes = append(g.Nodes, graphviz.Node{ID: e.ID, Label: e.Name, Attrs: a})
	}
	for _, r := range rels {
		g.Edges = append(g.Edges, graphviz.Edge{From: r.Subject, To: r.Object, Label: r.Predicate, Attrs: relationAttrs(r)})
	}
	return g
}

func relationAttrs(r *kg.Relation) graphviz.Attrs {
	a := graphviz.Attrs{"id": r.ID, "origin": string(r.Origin)}
	set := func(k, v string) {
		if v != "" {
			a[k] = v
		}
	}
	set("time", r.TimeString())
	if !r.Time.IsZero() {
		a["gran"] = r.Time.Gran.String()
		a["start"] = r.Time.Time.Format("2006-01-02T15:04:05Z07:00")
	}
	set("condition", r.Condition)
	if r.Session > 0 {
		a["session"] = strconv.Itoa(r.Session)
	}
	set("passages", strings.Join(r.Passages, " "))
	return a
}
