package graphs

import (
	"reflect"
	"testing"
	"time"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
	"ctxscope/graphviz"
)

func ids(g *graphviz.Graph) ([]string, [][2]string) {
	var nodes []string
	var edges [][2]string
	for _, n := range g.Nodes {
		nodes = append(nodes, n.ID)
	}
	for _, e := range g.Edges {
		edges = append(edges, [2]string{e.From, e.To})
	}
	return nodes, edges
}

func TestEpisodes(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	msgs := make([]*session.Message, 12)
	for i := range msgs {
		msgs[i] = &session.Message{Time: t0.Add(time.Duration(i) * time.Minute)}
	}
	eps := &cwl.Episodes{Mode: cwl.Declared, List: []cwl.Episode{
		{ID: 0, Name: "e1", Kind: "expl", Description: "found it", Start: 1, End: 3, ClosedAt: 3},
		{ID: 1, Name: "gap", Kind: cwl.KindUnannotated, Start: 4, End: 4, ClosedAt: 4},
		{ID: 2, Name: "a1", Kind: "act", Dependencies: []string{"e1", "ghost"}, Deps: []int{0}, Start: 5, End: 7, ClosedAt: 7},
		{ID: 3, Name: "e1", Kind: "expl", Start: 8, End: 11, ClosedAt: -1},
	}}
	tests := []struct {
		name   string
		n      int
		levels []int
		nodes  []string
		edges  [][2]string
		states map[string]string
	}{
		{"all whole", 12, nil, []string{"e1", "a1", "e1#2", "ghost"}, [][2]string{{"e1", "a1"}, {"ghost", "a1"}},
			map[string]string{"e1": "closed", "a1": "closed", "e1#2": "open", "ghost": "missing"}},
		{"levels set states", 12, []int{2, 0, 4, 0}, []string{"e1", "a1", "e1#2", "ghost"}, [][2]string{{"e1", "a1"}, {"ghost", "a1"}},
			map[string]string{"e1": "stripped", "a1": "evicted", "e1#2": "open"}},
		{"episodes not started yet are left out", 6, nil, []string{"e1", "a1", "ghost"}, [][2]string{{"e1", "a1"}, {"ghost", "a1"}},
			map[string]string{"a1": "open"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := Episodes(eps, tc.n, tc.levels, msgs)
			nodes, edges := ids(g)
			if !reflect.DeepEqual(nodes, tc.nodes) || !reflect.DeepEqual(edges, tc.edges) {
				t.Fatalf("nodes %v edges %v", nodes, edges)
			}
			for _, nd := range g.Nodes {
				if want, ok := tc.states[nd.ID]; ok && nd.Attrs["state"] != want {
					t.Errorf("%s: state %q, want %q", nd.ID, nd.Attrs["state"], want)
				}
			}
		})
	}
	g := Episodes(eps, 12, []int{2, 0, 0, 0}, msgs)
	want := graphviz.Attrs{"kind": "expl", "episode": "0", "state": "stripped", "level": "2", "start": "1", "end": "3",
		"description": "found it", "time": "2026-01-02T03:05:05Z", "end_time": "2026-01-02T03:07:05Z"}
	if !reflect.DeepEqual(g.Nodes[0].Attrs, want) {
		t.Errorf("e1 attrs\n got %v\nwant %v", g.Nodes[0].Attrs, want)
	}
	if g.Nodes[0].Seq != 1 || g.Nodes[3].Seq != -1 {
		t.Errorf("seq %d %d", g.Nodes[0].Seq, g.Nodes[3].Seq)
	}
}

func TestDrawKeepsFutureNodesInPlace(t *testing.T) {
	eps := &cwl.Episodes{Mode: cwl.Declared, List: []cwl.Episode{
		{ID: 0, Name: "e1", Kind: "expl", Start: 1, End: 3, ClosedAt: 3},
		{ID: 1, Name: "a1", Kind: "act", Dependencies: []string{"e1"}, Deps: []int{0}, Start: 5, End: 7, ClosedAt: 7},
	}}
	full := Episodes(eps, 8, nil, nil)
	l, err := graphviz.Layered(full, graphviz.LayeredOptions{Ranking: graphviz.TimeOrdered, Splines: true})
	if err != nil {
		t.Fatal(err)
	}
	d := Draw(full, l, Episodes(eps, 4, []int{2, 0}, nil))
	if len(d.Nodes) != 2 || len(d.Edges) != 1 {
		t.Fatalf("drawing %+v", d)
	}
	if d.Nodes[0].Attrs["state"] != StateStripped || d.Nodes[0].Attrs["level"] != "2" {
		t.Errorf("e1 at request 4: %v", d.Nodes[0].Attrs)
	}
	if d.Nodes[1].Attrs["state"] != StateFuture || !d.Edges[0].Future {
		t.Errorf("a1 has not started at request 4: %v, edge future %v", d.Nodes[1].Attrs, d.Edges[0].Future)
	}
	if d.Nodes[0].Y >= d.Nodes[1].Y || d.Width <= 0 {
		t.Errorf("e1 at y=%v should be above a1 at y=%v", d.Nodes[0].Y, d.Nodes[1].Y)
	}
}
