package annotate

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// repeat returns n copies of s.
func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func cat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestCohen(t *testing.T) {
	tests := []struct {
		name      string
		a, b      []string
		po, pe, k float64
		undefined bool
	}{
		// 50 units: yes/yes 20, yes/no 5, no/yes 10, no/no 15.
		// po = 35/50 = 0.7; pe = 0.5·0.6 + 0.5·0.4 = 0.5; κ = 0.2/0.5 = 0.4.
		{"textbook 2x2", cat(repeat("yes", 25), repeat("no", 25)), cat(repeat("yes", 20), repeat("no", 5), repeat("yes", 10), repeat("no", 15)), 0.7, 0.5, 0.4, false},
		// Perfect agreement on two labels: po = 1, pe = 0.5, κ = 1.
		{"perfect", []string{"h", "n", "h", "n"}, []string{"h", "n", "h", "n"}, 1, 0.5, 1, false},
		// Total disagreement on balanced labels: po = 0, pe = 0.5, κ = -1.
		{"opposite", []string{"h", "n"}, []string{"n", "h"}, 0, 0.5, -1, false},
		// 3 units, a = h h n, b = h n n: po = 2/3; pe = (2/3)(1/3) + (1/3)(2/3) = 4/9;
		// κ = (2/3 - 4/9) / (5/9) = 2/5.
		{"three units", []string{"h", "h", "n"}, []string{"h", "n", "n"}, 2.0 / 3, 4.0 / 9, 0.4, false},
		// Three labels: a = x x y z, b = x y y z: po = 3/4; pe = (2·1 + 1·2 + 1·1)/16 = 5/16;
		// κ = (12/16 - 5/16) / (11/16) = 7/11.
		{"three labels", []string{"x", "x", "y", "z"}, []string{"x", "y", "y", "z"}, 0.75, 5.0 / 16, 7.0 / 11, false},
		// Everybody says yes: pe = 1, κ undefined.
		{"one label only", []string{"y", "y"}, []string{"y", "y"}, 1, 1, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Cohen(tc.a, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			if !near(got.Observed, tc.po) || !near(got.Expected, tc.pe) || !near(got.Kappa, tc.k) || got.Defined == tc.undefined {
				t.Errorf("got %+v, want po %.4f pe %.4f κ %.4f defined %v", got, tc.po, tc.pe, tc.k, !tc.undefined)
			}
		})
	}
	if _, err := Cohen(nil, nil); !errors.Is(err, ErrTooFew) {
		t.Errorf("no units: %v", err)
	}
	if _, err := Cohen([]string{"a"}, nil); err == nil {
		t.Error("unequal lengths accepted")
	}
}

func TestFleiss(t *testing.T) {
	// Fleiss (1971) as worked on Wikipedia: 10 subjects, 14 raters, 5
	// categories; P̄ = 0.378, P̄e = 0.213, κ = 0.210.
	counts := [][5]int{{0, 0, 0, 0, 14}, {0, 2, 6, 4, 2}, {0, 0, 3, 5, 6}, {0, 3, 9, 2, 0}, {2, 2, 8, 1, 1},
		{7, 7, 0, 0, 0}, {3, 2, 6, 3, 0}, {2, 5, 3, 2, 2}, {6, 5, 2, 1, 0}, {0, 2, 2, 3, 7}}
	var wiki [][]string
	for _, c := range counts {
		var unit []string
		for k, n := range c {
			unit = append(unit, repeat(string(rune('1'+k)), n)...)
		}
		wiki = append(wiki, unit)
	}
	tests := []struct {
		name      string
		ratings   [][]string
		po, pe, k float64
	}{
		{"Fleiss 1971", wiki, 0.37802, 0.21275, 0.20993},
		// Three raters, two units: (h h h) gives P = 1, (h h n) gives P = 1/3;
		// P̄ = 2/3; p(h) = 5/6, p(n) = 1/6; P̄e = 26/36; κ = (24/36 - 26/36)/(10/36) = -0.2.
		{"three raters", [][]string{{"h", "h", "h"}, {"h", "h", "n"}}, 2.0 / 3, 26.0 / 36, -0.2},
		// Two raters reduce to Scott's pi: (h,h) (n,n) (h,n): P̄ = 2/3,
		// p(h) = p(n) = 1/2, P̄e = 1/2, κ = 1/3.
		{"two raters", [][]string{{"h", "h"}, {"n", "n"}, {"h", "n"}}, 2.0 / 3, 0.5, 1.0 / 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Fleiss(tc.ratings)
			if err != nil {
				t.Fatal(err)
			}
			if !nearTo(got.Observed, tc.po, 1e-4) || !nearTo(got.Expected, tc.pe, 1e-4) || !nearTo(got.Kappa, tc.k, 1e-4) || !got.Defined {
				t.Errorf("got %+v, want P̄ %.5f P̄e %.5f κ %.5f", got, tc.po, tc.pe, tc.k)
			}
		})
	}
	if _, err := Fleiss([][]string{{"a", "b"}, {"a"}}); err == nil || !strings.Contains(err.Error(), "unit 1") {
		t.Errorf("ragged ratings: %v", err)
	}
	if _, err := Fleiss([][]string{{"a"}}); !errors.Is(err, ErrTooFew) {
		t.Errorf("one rater: %v", err)
	}
}

func near(a, b float64) bool { return nearTo(a, b, 1e-9) }

func nearTo(a, b, eps float64) bool { return math.Abs(a-b) <= eps }
