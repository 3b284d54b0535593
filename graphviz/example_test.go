package graphviz_test

import (
	"fmt"
	"os"

	"ctxscope/graphviz"
)

// An episode DAG: two explorations feed an action. The time-ordered
// ranking keeps later episodes below earlier ones.
func ExampleLayered() {
	g := &graphviz.Graph{
		Name: "episodes",
		Nodes: []graphviz.Node{
			{ID: "e1", Seq: 1, Attrs: graphviz.Attrs{"kind": "expl", "state": "closed"}},
			{ID: "e2", Seq: 2, Attrs: graphviz.Attrs{"kind": "expl", "state": "evicted"}},
			{ID: "a1", Seq: 3, Attrs: graphviz.Attrs{"kind": "act", "state": "open"}},
		},
		Edges: []graphviz.Edge{{From: "e1", To: "a1"}, {From: "e2", To: "a1"}},
	}
	l, err := graphviz.Layered(g, graphviz.LayeredOptions{Ranking: graphviz.TimeOrdered})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, n := range g.Nodes {
		fmt.Printf("%s rank %d\n", n.ID, l.Nodes[i].Rank)
	}
	// Output:
	// e1 rank 0
	// e2 rank 0
	// a1 rank 1
}

// WriteDOT sorts everything, so the output is the same whatever the input
// order, and the "state" attribute picks the style.
func ExampleWriteDOT() {
	g := &graphviz.Graph{
		Nodes: []graphviz.Node{{ID: "b", Attrs: graphviz.Attrs{"state": "evicted"}}, {ID: "a"}},
		Edges: []graphviz.Edge{{From: "a", To: "b", Attrs: graphviz.Attrs{"time": "2023-05-08"}}},
	}
	if err := graphviz.WriteDOT(os.Stdout, g, graphviz.DOTOptions{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// digraph G {
	// 	graph [fontname=Helvetica, rankdir=TB];
	// 	node [fontname=Helvetica, fontsize="14"];
	// 	edge [fontname=Helvetica, fontsize="10.5"];
	// 	a [color="#374151", fillcolor="#f3f4f6", fontcolor="#111827", label=a, shape=box, style="rounded,filled"];
	// 	b [color="#9ca3af", fillcolor="#ffffff", fontcolor="#6b7280", label=b, shape=box, state=evicted, style="rounded,filled,dotted"];
	// 	a -> b [color="#4b5563", fontcolor="#374151", time="2023-05-08"];
	// }
}

// The neighbourhood of a node, cut out of a larger graph and laid out
// around it.
func ExampleEgoIndex_Ego() {
	g := &graphviz.Graph{
		Nodes: []graphviz.Node{{ID: "Caroline"}, {ID: "necklace"}, {ID: "grandma"}, {ID: "Sweden"}},
		Edges: []graphviz.Edge{
			{From: "grandma", To: "necklace", Label: "gave"},
			{From: "Caroline", To: "necklace", Label: "owns"},
			{From: "grandma", To: "Sweden", Label: "lives in"},
		},
	}
	idx, err := graphviz.NewEgoIndex(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	ego, _ := idx.Ego("necklace", 1, 0)
	for _, n := range ego.Nodes {
		fmt.Println(n.ID, "hop", n.Attrs["hop"])
	}
	l, _ := graphviz.Force(ego, graphviz.ForceOptions{Seed: 1, Center: "necklace"})
	fmt.Println(len(l.Nodes), "nodes placed,", len(l.Overlapping()), "overlapping")
	// Output:
	// necklace hop 0
	// grandma hop 1
	// Caroline hop 1
	// 3 nodes placed, 0 overlapping
}
