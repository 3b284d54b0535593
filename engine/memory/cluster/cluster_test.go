package cluster

import (
	"context"
	"fmt"
	"math"
	"testing"

	"ctxscope/engine/memory/embed"
)

// unit makes a unit whose vector points at angle deg in the plane.
func unit(id string, deg float64) Unit {
	r := deg * math.Pi / 180
	return Unit{ID: id, Speaker: "A", Text: "I love hiking in the mountains with my dog " + id, Vec: []float32{float32(math.Cos(r)), float32(math.Sin(r))}}
}

func TestDBSCAN(t *testing.T) {
	tests := []struct {
		name string
		degs []float64
		want string
	}{
		{"two groups and noise", []float64{0, 10, 20, 90, 95, 200}, "[0 0 0 1 1 -1]"},
		{"chain joins through core points", []float64{0, 40, 80}, "[0 0 0]"}, // cos 40° = 0.77 >= 0.7
		{"all noise", []float64{0, 90, 180}, "[-1 -1 -1]"},
		{"empty", nil, "[]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var vs [][]float32
			for i, d := range tt.degs {
				vs = append(vs, unit(fmt.Sprint(i), d).Vec)
			}
			if got := fmt.Sprint(DBSCAN(vs, 0.3, 2)); got != tt.want {
				t.Errorf("labels %s, want %s", got, tt.want)
			}
		})
	}
}

func TestLayerRoutingAndReinduction(t *testing.T) {
	ctx := context.Background()
	for _, cfg := range []Config{PaperConfig(), CodeConfig()} {
		l := NewLayer()
		// First window: two groups (0-20°, 90-95°) and one outlier (200°).
		first := []Unit{unit("a", 0), unit("b", 10), unit("c", 20), unit("d", 90), unit("e", 95), unit("f", 200)}
		if err := l.Add(ctx, cfg, Offline{}, first); err != nil {
			t.Fatal(err)
		}
		wantClusters, wantPending := 2, 1
		if cfg.NoiseAsGroup {
			wantClusters, wantPending = 3, 0 // the code treats noise as a group, and offline finds it consistent
		}
		if len(l.Clusters) != wantClusters || len(l.Pending) != wantPending {
			t.Fatalf("reinduce %d: %d clusters, %d pending; want %d, %d", cfg.Reinduce, len(l.Clusters), len(l.Pending), wantClusters, wantPending)
		}
		// Units at cos >= 0.8 to the first centre join it and fill its buffer.
		var next []Unit
		for i := 0; i < cfg.Reinduce; i++ {
			next = append(next, unit(fmt.Sprintf("n%d", i), 5+float64(i)))
		}
		before := l.Clusters[0].CenterText
		if err := l.Add(ctx, cfg, Offline{}, next); err != nil {
			t.Fatal(err)
		}
		c := l.Clusters[0]
		if len(c.Members) != 3+cfg.Reinduce || len(c.Buffer) != 0 {
			t.Errorf("reinduce %d: members %d buffer %d; want %d and a cleared buffer", cfg.Reinduce, len(c.Members), len(c.Buffer), 3+cfg.Reinduce)
		}
		if c.CenterText == "" || before == "" {
			t.Error("no theme")
		}
		// A unit below 0.5 of every centre waits.
		if err := l.Add(ctx, cfg, Offline{}, []Unit{unit("far", 300)}); err != nil {
			t.Fatal(err)
		}
		if l.Pending[len(l.Pending)-1] != "far" {
			t.Errorf("pending %v", l.Pending)
		}
	}
}

func TestOfflineExperiences(t *testing.T) {
	units := []Unit{
		{ID: "D1:1", Speaker: "Caroline", Text: "Hey Mel! Good to see you! How have you been?", Vec: []float32{1, 0}},
		{ID: "D1:3", Speaker: "Caroline", Text: "I went to a LGBTQ support group yesterday and it was so powerful.", Vec: []float32{1, 0}},
		{ID: "D1:5", Speaker: "Melanie", Text: "I love painting landscapes with my kids on weekends.", Vec: []float32{0.9, 0.1}},
		{ID: "D1:7", Speaker: "Melanie", Text: "Running helps me clear my head when things get stressful at work.", Vec: []float32{0.8, 0.2}},
	}
	embed.Normalize(units[2].Vec)
	embed.Normalize(units[3].Vec)
	items, err := Offline{}.Experiences(context.Background(), units)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Type{}
	var digests []Experience
	for _, it := range items {
		if len(it.Sources) > 1 {
			digests = append(digests, it)
			continue
		}
		got[it.Sources[0]] = it.Type
	}
	want := map[string]Type{"D1:3": Fact, "D1:5": Preference, "D1:7": Strategy}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("items %v, want %v (the greeting is small talk)", got, want)
	}
	// Melanie has two statements, so one digest of both; Caroline has one.
	wantDigest := "Melanie: I love painting landscapes with my kids on weekends; Running helps me clear my head when things get stressful at…"
	if len(digests) != 1 || digests[0].Content != wantDigest || fmt.Sprint(digests[0].Sources) != "[D1:5 D1:7]" {
		t.Errorf("digests %+v, want one: %q from [D1:5 D1:7]", digests, wantDigest)
	}
}

func TestClipWords(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short enough", 20, "short enough"},
		{"I went camping in the mountains with the kids", 20, "I went camping in…"},
		{"Supercalifragilisticexpialidocious words", 12, "Supercalifr…"},
		{"We roast marshmallows, tell stories", 24, "We roast marshmallows…"},
	}
	for _, tc := range tests {
		if got := clipWords(tc.in, tc.n); got != tc.want {
			t.Errorf("clipWords(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
