package graphviz

import (
	"errors"
	"reflect"
	"strconv"
	"testing"
)

func TestForceIsDeterministic(t *testing.T) {
	g := scaleFree(500, 1)
	a, err := Force(g, ForceOptions{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Force(g, ForceOptions{Seed: 7})
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed, different layouts")
	}
	c, _ := Force(g, ForceOptions{Seed: 8})
	if reflect.DeepEqual(a, c) {
		t.Fatal("different seeds, same layout")
	}
}

func TestForceEgoGraphsDoNotOverlap(t *testing.T) {
	g := loadKG(t, 0, true)
	idx, err := NewEgoIndex(g)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		center      string
		hops, limit int
	}{
		{"pottery", 1, 0},
		{"pottery", 2, 150},
		{"Caroline", 1, 300},
		{"Oliver", 2, 0},
	}
	for _, tc := range tests {
		ego, err := idx.Ego(entityID(t, g, tc.center), tc.hops, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		l, err := Force(ego, ForceOptions{Seed: 1, Center: ego.Nodes[0].ID})
		if err != nil {
			t.Fatal(err)
		}
		if ov := l.Overlapping(); len(ov) > 0 {
			t.Fatalf("%s/%d: %d of %d nodes overlap", tc.center, tc.hops, len(ov), len(ego.Nodes))
		}
	}
}

func TestEgo(t *testing.T) {
	g := &Graph{Nodes: []Node{{ID: "c"}, {ID: "a"}, {ID: "b"}, {ID: "d"}, {ID: "far"}},
		Edges: []Edge{{From: "a", To: "c"}, {From: "c", To: "b"}, {From: "b", To: "d"}, {From: "d", To: "far"}, {From: "a", To: "b"}, {From: "c", To: "c"}}}
	idx, err := NewEgoIndex(g)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		hops, limit int
		nodes       []string
		edges       int
	}{
		{0, 0, []string{"c"}, 1},
		{1, 0, []string{"c", "a", "b"}, 4},
		{2, 0, []string{"c", "a", "b", "d"}, 5},
		{9, 0, []string{"c", "a", "b", "d", "far"}, 6},
		{2, 2, []string{"c", "a"}, 2},
	}
	for _, tc := range tests {
		ego, err := idx.Ego("c", tc.hops, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, n := range ego.Nodes {
			ids = append(ids, n.ID)
		}
		if !reflect.DeepEqual(ids, tc.nodes) || len(ego.Edges) != tc.edges {
			t.Fatalf("hops %d limit %d: nodes %v, %d edges; want %v, %d", tc.hops, tc.limit, ids, len(ego.Edges), tc.nodes, tc.edges)
		}
		for _, n := range ego.Nodes {
			if h, _ := strconv.Atoi(n.Attrs["hop"]); h > tc.hops {
				t.Fatalf("node %s at hop %d beyond %d", n.ID, h, tc.hops)
			}
		}
	}
	if g.Nodes[0].Attrs != nil {
		t.Fatal("Ego changed the source graph's attributes")
	}
	if _, err := idx.Ego("nobody", 1, 0); !errors.Is(err, ErrUnknownNode) {
		t.Fatalf("unknown centre: got %v", err)
	}
}

func BenchmarkForce(b *testing.B) {
	for _, g := range []*Graph{scaleFree(1000, 1), scaleFree(10000, 1), allKG(b)} {
		b.Run(g.Name, func(b *testing.B) {
			cpu := startCPU()
			for b.Loop() {
				if _, err := Force(g, ForceOptions{Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report(b)
			b.ReportMetric(float64(len(g.Nodes)), "nodes")
		})
	}
}

func BenchmarkEgo(b *testing.B) {
	g := allKG(b)
	idx, err := NewEgoIndex(g)
	if err != nil {
		b.Fatal(err)
	}
	s0 := loadKG(b, 0, true)
	for _, tc := range []struct {
		name        string
		hops, limit int
	}{{"pottery", 2, 0}, {"Caroline", 1, 0}, {"Caroline", 2, 500}} {
		center := entityID(b, s0, tc.name)
		b.Run(tc.name+"/"+strconv.Itoa(tc.hops), func(b *testing.B) {
			var n int
			cpu := startCPU()
			for b.Loop() {
				ego, err := idx.Ego(center, tc.hops, tc.limit)
				if err != nil {
					b.Fatal(err)
				}
				n = len(ego.Nodes)
				if _, err := Force(ego, ForceOptions{Seed: 1, Center: center}); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report(b)
			b.ReportMetric(float64(n), "nodes")
		})
	}
}

func TestForceSmallAndOddGraphs(t *testing.T) {
	tests := []struct {
		name string
		g    *Graph
	}{
		{"empty", &Graph{}},
		{"single", &Graph{Nodes: []Node{{ID: "a"}}}},
		{"isolated pair", &Graph{Nodes: []Node{{ID: "a"}, {ID: "b"}}}},
		{"loops and multi-edges", &Graph{Nodes: []Node{{ID: "a"}, {ID: "b"}, {ID: "c"}},
			Edges: []Edge{{From: "a", To: "a"}, {From: "a", To: "b"}, {From: "b", To: "a"}, {From: "a", To: "b"}, {From: "c", To: "b"}}}},
	}
	for _, tc := range tests {
		for _, center := range []string{"", "a"} {
			if center != "" && len(tc.g.Nodes) == 0 {
				continue
			}
			l, err := Force(tc.g, ForceOptions{Seed: 3, Center: center})
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			for i, b := range l.Nodes {
				if b.X != b.X || b.Y != b.Y || b.X-b.W/2 < 0 || b.Y-b.H/2 < 0 {
					t.Fatalf("%s: node %d at (%g, %g)", tc.name, i, b.X, b.Y)
				}
			}
			if ov := l.Overlapping(); len(ov) > 0 {
				t.Fatalf("%s: overlaps %v", tc.name, ov)
			}
		}
	}
	if _, err := Force(&Graph{Nodes: []Node{{ID: "a"}}}, ForceOptions{Center: "zz"}); !errors.Is(err, ErrUnknownNode) {
		t.Fatalf("unknown centre: got %v", err)
	}
}

func TestMergeParallel(t *testing.T) {
	g := &Graph{Nodes: []Node{{ID: "a"}, {ID: "b"}, {ID: "c"}},
		Edges: []Edge{{From: "a", To: "b", Label: "x"}, {From: "b", To: "c", Label: "y"}, {From: "b", To: "a", Label: "z"},
			{From: "a", To: "b", Label: "x"}, {From: "a", To: "b", Label: "w"}, {From: "a", To: "b", Label: "v"}}}
	m := MergeParallel(g)
	if len(m.Edges) != 2 {
		t.Fatalf("%d edges, want 2", len(m.Edges))
	}
	if e := m.Edges[0]; e.Label != "x, z +2" || e.Attrs["count"] != "5" {
		t.Fatalf("merged edge %+v", e)
	}
	if e := m.Edges[1]; e.Label != "y" || e.Attrs != nil {
		t.Fatalf("single edge %+v", e)
	}
	if g.Edges[0].Attrs != nil || len(g.Edges) != 6 {
		t.Fatal("MergeParallel changed its input")
	}
}
