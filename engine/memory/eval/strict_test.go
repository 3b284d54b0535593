package eval

import (
	"math"
	"testing"
)

func TestScoreStrict(t *testing.T) {
	turns := map[string]string{"D1:1": "I went to the LGBTQ support group yesterday.", "D1:2": "That sounds great!", "D2:1": "Sunday was fun."}
	text := func(id string) (string, bool) { s, ok := turns[id]; return s, ok }
	tests := []struct {
		name, context string
		evidence      []string
		want          float64
	}{
		{"whole turn shown", "[8 May]\nCaroline: I went to the LGBTQ support group yesterday.\n", []string{"D1:1"}, 1},
		{"a triple is not evidence", "Caroline attended LGBTQ support group | time: 7 May 2023\n", []string{"D1:1"}, 0},
		{"part of a turn is not the turn", "I went to the LGBTQ support group", []string{"D1:1"}, 0},
		{"one of two", "Sunday was fun.", []string{"D1:2", "D2:1"}, 0.5},
		{"an id naming no turn counts as missing", "Sunday was fun.", []string{"D2:1", "D9:9"}, 0.5},
	}
	for _, tc := range tests {
		q := Question{Evidence: tc.evidence}
		q.ScoreStrict(tc.context, text)
		if q.Strict != tc.want {
			t.Errorf("%s: strict %v, want %v", tc.name, q.Strict, tc.want)
		}
	}
}

func TestPairedBootstrap(t *testing.T) {
	// A constant difference has a zero-width interval at it.
	a, b := []float64{1, 1, 0, 1}, []float64{0.5, 0.5, -0.5, 0.5}
	iv := PairedBootstrap(a, b, 500)
	if math.Abs(iv.Mean-0.5) > 1e-12 || math.Abs(iv.Low-0.5) > 1e-12 || math.Abs(iv.High-0.5) > 1e-12 || !iv.Excludes0() {
		t.Errorf("constant difference: %+v", iv)
	}
	// Differences of both signs, balanced: the interval straddles 0.
	a, b = []float64{1, 0, 1, 0, 1, 0, 1, 0}, []float64{0, 1, 0, 1, 0, 1, 0, 1}
	if iv := PairedBootstrap(a, b, 2000); iv.Mean != 0 || iv.Excludes0() || iv.Low >= 0 || iv.High <= 0 {
		t.Errorf("balanced differences: %+v", iv)
	}
	// Reproducible: a fixed seed.
	if PairedBootstrap(a, b, 300) != PairedBootstrap(a, b, 300) {
		t.Error("two runs differ")
	}
}

func TestCompareRefusesUnpairedRows(t *testing.T) {
	a := []Question{{Sample: "s", Index: 1, Category: 1, Evidence: []string{"x"}}}
	b := []Question{{Sample: "s", Index: 2, Category: 1, Evidence: []string{"x"}}}
	if _, err := Compare(1000, a, b); err == nil {
		t.Error("rows of different questions were paired")
	}
}
