package cwl

import "testing"

// TestCalibratedSplitSumsToTheInput replays a real pi session in
// calibrated tokens, whose online fit has a negative overhead for some
// requests (the estimator counts a constant more than the provider):
// each request's split by category still sums to its input, give or take
// a token of rounding per category.
func TestCalibratedSplitSumsToTheInput(t *testing.T) {
	r := prepareFile(t, "../../testdata/shared/sessions/pi/pi-cwl__before-compaction.jsonl", Inferred)
	scales, _ := r.Calibrate()
	negative := 0
	for _, s := range scales {
		if s.Basis > 0 && s.Overhead < -100 {
			negative++
		}
	}
	if negative < 20 {
		t.Fatalf("%d of %d scales with an overhead under -100: the session no longer tests a negative overhead", negative, len(scales))
	}
	for _, tc := range []struct {
		policy string
		budget int
	}{{PolicyNone, 1 << 30}, {PolicyPaper, 60_000}, {PolicyPiCWL, 60_000}} {
		tl, err := r.Run(RunOptions{Policy: tc.policy, Budget: tc.budget, Calibration: scales})
		if err != nil {
			t.Fatal(err)
		}
		for k, pt := range tl.Requests {
			sum := 0
			for _, c := range pt.Cats {
				sum += int(c)
			}
			if d := sum - pt.After; d > numCats || d < -numCats {
				t.Errorf("%s τ=%d request %d: categories sum to %d, input %d", tc.policy, tc.budget, k, sum, pt.After)
				break
			}
		}
	}
}
