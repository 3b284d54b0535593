package graphs

import (
	"reflect"
	"testing"
	"time"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
	"ctxscope/graphviz"
)

func TestEpisodes(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	msgs := make([]*session.Message, 10)
	for i := range msgs {
		msgs[i] = &session.Message{Time: t0.Add(time.Duration(i) * time.Minute)}
	}
	tests := []struct {
		name  string
		segs  []cwl.Segment
		nodes []string
		edges [][2]string
		check func(t *testing.T, g *graphviz.Graph)
	}{
		{
			name:  "dependency runs from exploration to action",
			segs:  []cwl.Segment{{Name: "e1", Kind: "expl", Completed: true, Start: 1, End: 3}, {Name: "a1", Kind: "act", Dependencies: []string{"e1"}, Start: 4, End: 9}},
			nodes: []string{"e1", "a1"},
			edges: [][2]string{{"e1", "a1"}},
			check: func(t *testing.T, g *graphviz.Graph) {
				want := graphviz.Attrs{"kind": "expl", "state": "closed", "start": "1", "end": "3", "time": "2026-01-02T03:05:05Z", "end_time": "2026-01-02T03:07:05Z"}
				if !reflect.DeepEqual(g.Nodes[0].Attrs, want) {
					t.Errorf("e1 attrs %v, want %v", g.Nodes[0].Attrs, want)
				}
				if g.Nodes[1].Attrs["state"] != StateOpen || g.Nodes[1].Attrs["end_time"] != "" {
					t.Errorf("open a1 attrs %v", g.Nodes[1].Attrs)
				}
				if g.Nodes[1].Seq != 4 {
					t.Errorf("a1 seq %d, want its start 4", g.Nodes[1].Seq)
				}
			},
		},
		{
			name: "reused names get suffixes and dependencies the latest earlier one",
			segs: []cwl.Segment{{Name: "e", Kind: "expl", Start: 0}, {Name: "e", Kind: "expl", Start: 2},
				{Name: "a", Kind: "act", Dependencies: []string{"e"}, Start: 4}, {Name: "e", Kind: "expl", Start: 6}},
			nodes: []string{"e", "e#2", "a", "e#3"},
			edges: [][2]string{{"e#2", "a"}},
		},
		{
			name:  "unknown dependency becomes a missing node",
			segs:  []cwl.Segment{{Name: "a", Kind: "act", Dependencies: []string{"ghost", "ghost"}, Start: 1}},
			nodes: []string{"a", "ghost"},
			edges: [][2]string{{"ghost", "a"}, {"ghost", "a"}},
			check: func(t *testing.T, g *graphviz.Graph) {
				if g.Nodes[1].Attrs["state"] != StateMissing {
					t.Errorf("ghost attrs %v", g.Nodes[1].Attrs)
				}
			},
		},
		{name: "no segments", nodes: nil, edges: nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := Episodes(tc.segs, msgs)
			var nodes []string
			for _, n := range g.Nodes {
				nodes = append(nodes, n.ID)
			}
			var edges [][2]string
			for _, e := range g.Edges {
				edges = append(edges, [2]string{e.From, e.To})
			}
			if !reflect.DeepEqual(nodes, tc.nodes) || !reflect.DeepEqual(edges, tc.edges) {
				t.Fatalf("nodes %v edges %v, want %v %v", nodes, edges, tc.nodes, tc.edges)
			}
			if _, err := graphviz.Layered(g, graphviz.LayeredOptions{Ranking: graphviz.TimeOrdered}); err != nil {
				t.Fatalf("the graph does not lay out: %v", err)
			}
			if tc.check != nil {
				tc.check(t, g)
			}
		})
	}
}
