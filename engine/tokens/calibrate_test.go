package tokens

import (
	"math"
	"testing"
)

func TestCalibrateExactLine(t *testing.T) {
	// reported = 5000 + 1.25 × counted, with one request unreported.
	counted := []int{1000, 1800, 2600, 3000, 4200, 5000}
	obs := make([]Observation, len(counted))
	for i, c := range counted {
		obs[i] = Observation{Group: "main", Counted: c, Reported: 5000 + c*5/4}
	}
	obs[3].Reported = 0
	pred, cal := Calibrate("estimate", obs)
	tests := []struct {
		k, tokens, basis int
	}{
		{0, 1000, 0},               // nothing before it: the counted size
		{1, 6250 - 1000 + 1800, 1}, // ratio 1 until a change was seen, anchored at request 0
		{2, 5000 + 3250, 2},        // on the line from here on, but for the prior's pull
		{3, 5000 + 3750, 3},
		{4, 5000 + 5250, 3}, // request 3 reported nothing: the basis stays
		{5, 5000 + 6250, 4},
	}
	for _, tc := range tests {
		p := pred[tc.k]
		if math.Abs(float64(p.Tokens-tc.tokens)) > 0.005*float64(tc.tokens) || p.Basis != tc.basis {
			t.Errorf("request %d: %+v, want %d tokens (±0.5%%) on %d", tc.k, p, tc.tokens, tc.basis)
		}
	}
	if cal.N != 5 || cal.Scored != 2 || cal.MedianError > 0.005 || math.Abs(cal.Ratio-1.25) > 0.01 || math.Abs(cal.Overhead-5000) > 50 {
		t.Errorf("calibration %+v", cal)
	}
}

// TestCalibrateOnline: a request's prediction does not depend on its own
// or any later report.
func TestCalibrateOnline(t *testing.T) {
	obs := []Observation{{"a", 100, 900}, {"a", 300, 1200}, {"a", 500, 1500}, {"a", 700, 1700}}
	before, _ := Calibrate("x", obs)
	obs[2].Reported, obs[3].Reported = 99999, 1
	after, _ := Calibrate("x", obs)
	for k := 0; k <= 2; k++ {
		if before[k] != after[k] {
			t.Errorf("request %d changed with later reports: %+v then %+v", k, before[k], after[k])
		}
	}
}

// TestCalibrateGroups: each group (a thread and model) has its own fit.
func TestCalibrateGroups(t *testing.T) {
	obs := []Observation{
		{"main", 1000, 11000}, {"sub", 100, 3100}, {"main", 2000, 12000}, {"sub", 200, 3200}, {"main", 3000, 13000}, {"sub", 300, 3300},
	}
	pred, _ := Calibrate("x", obs)
	if pred[4].Tokens != 13000 || pred[5].Tokens != 3300 {
		t.Errorf("predictions %+v", pred)
	}
}
