package graphviz

import "testing"

func TestInversions(t *testing.T) {
	tests := []struct {
		seq  []int
		size int
		want int
	}{
		{nil, 0, 0},
		{[]int{0}, 1, 0},
		{[]int{0, 1, 2}, 3, 0},
		{[]int{2, 1, 0}, 3, 3},
		{[]int{1, 1, 0}, 2, 2},
		{[]int{3, 0, 2, 1}, 4, 4},
	}
	for _, tc := range tests {
		if got := inversions(tc.seq, tc.size); got != tc.want {
			t.Errorf("inversions(%v) = %d, want %d", tc.seq, got, tc.want)
		}
	}
}

// box places a node at (x, y).
func box(x, y float64) Box { return Box{X: x, Y: y, W: 10, H: 10} }

func TestCountCrossings(t *testing.T) {
	four := []Node{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}
	tests := []struct {
		name  string
		g     *Graph
		boxes []Box
		want  int
	}{
		{"parallel", &Graph{Nodes: four, Edges: []Edge{{From: "a", To: "c"}, {From: "b", To: "d"}}},
			[]Box{box(0, 0), box(50, 0), box(0, 50), box(50, 50)}, 0},
		{"crossed", &Graph{Nodes: four, Edges: []Edge{{From: "a", To: "d"}, {From: "b", To: "c"}}},
			[]Box{box(0, 0), box(50, 0), box(0, 50), box(50, 50)}, 1},
		{"shared endpoint", &Graph{Nodes: four, Edges: []Edge{{From: "a", To: "c"}, {From: "a", To: "d"}}},
			[]Box{box(0, 0), box(50, 0), box(0, 50), box(50, 50)}, 0},
		{"upward edge counts too", &Graph{Nodes: four, Edges: []Edge{{From: "d", To: "a"}, {From: "b", To: "c"}}},
			[]Box{box(0, 0), box(50, 0), box(0, 50), box(50, 50)}, 1},
		{"same level ignored", &Graph{Nodes: four, Edges: []Edge{{From: "a", To: "b"}, {From: "c", To: "d"}}},
			[]Box{box(0, 0), box(50, 0), box(0, 50), box(50, 50)}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := &Layout{Nodes: tc.boxes, Edges: make([]Route, len(tc.g.Edges))}
			got, err := CountCrossings(tc.g, l)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("got %d crossings, want %d", got, tc.want)
			}
		})
	}
}

func TestCountCrossingsFollowsRoutes(t *testing.T) {
	// A long edge a->e bends right of c on the middle level, so it crosses
	// b->c... unless its route is ignored and it runs straight.
	g := &Graph{Nodes: []Node{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}},
		Edges: []Edge{{From: "a", To: "e"}, {From: "b", To: "c"}}}
	l := &Layout{Nodes: []Box{box(0, 0), box(100, 0), box(100, 50), box(200, 100), box(0, 100)},
		Edges: []Route{{Points: []Point{{0, 5}, {150, 50}, {0, 95}}}, {Points: []Point{{100, 5}, {100, 45}}}}}
	if got, _ := CountCrossings(g, l); got != 1 {
		t.Fatalf("routed: got %d crossings, want 1", got)
	}
	l.Edges[0].Points = nil
	if got, _ := CountCrossings(g, l); got != 0 {
		t.Fatalf("straight: got %d crossings, want 0", got)
	}
}

// TestCountCrossingsAgreesWithLayering checks the geometric count against
// the combinatorial count that crossing reduction minimises.
func TestCountCrossingsAgreesWithLayering(t *testing.T) {
	for _, g := range []*Graph{randomDAG(200, 4), episodeDAG(300, 4)} {
		_, ends, err := g.resolve()
		if err != nil {
			t.Fatal(err)
		}
		opt := LayeredOptions{}.withDefaults()
		l, lg, err := layered(g, ends, opt)
		if err != nil {
			t.Fatal(err)
		}
		want := lg.crossings()
		got, err := CountCrossings(g, l)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("%s: geometric count %d, layered count %d", g.Name, got, want)
		}
	}
}
