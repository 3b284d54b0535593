package annotate

import (
	"errors"
	"fmt"
	"sort"
)

// Agreement is a chance-corrected agreement between raters.
type Agreement struct {
	Method string `json:"method"` // "cohen" or "fleiss"
	Raters int    `json:"raters"`
	Units  int    `json:"units"` // units every rater labelled
	// Observed is the proportion of agreement, Expected the agreement
	// expected by chance from the label frequencies.
	Observed float64 `json:"observed"`
	Expected float64 `json:"expected"`
	// Kappa is (Observed - Expected) / (1 - Expected). It is undefined
	// (Defined false, Kappa 0) when Expected is 1: every rater gave every
	// unit the same single label.
	Kappa   float64 `json:"kappa"`
	Defined bool    `json:"defined"`
}

// ErrTooFew is returned when there are no units or too few raters.
var ErrTooFew = errors.New("annotate: too few units or raters for an agreement")

// Cohen returns Cohen's kappa of two raters: a[i] and b[i] are their
// labels of unit i.
func Cohen(a, b []string) (Agreement, error) {
	if len(a) != len(b) {
		return Agreement{}, fmt.Errorf("annotate: %d and %d labels", len(a), len(b))
	}
	n := float64(len(a))
	if n == 0 {
		return Agreement{}, ErrTooFew
	}
	ca, cb := map[string]float64{}, map[string]float64{}
	agree := 0.0
	for i := range a {
		ca[a[i]]++
		cb[b[i]]++
		if a[i] == b[i] {
			agree++
		}
	}
	pe := 0.0
	for _, k := range labels(ca, cb) {
		pe += ca[k] / n * cb[k] / n
	}
	return finish(Agreement{Method: "cohen", Raters: 2, Units: len(a), Observed: agree / n, Expected: pe}), nil
}

// Fleiss returns Fleiss' kappa: ratings[i] holds the labels that the
// raters gave unit i, the same number (at least two) for every unit.
func Fleiss(ratings [][]string) (Agreement, error) {
	if len(ratings) == 0 || len(ratings[0]) < 2 {
		return Agreement{}, ErrTooFew
	}
	raters := len(ratings[0])
	r := float64(raters)
	total := map[string]float64{}
	sumP := 0.0
	for i, unit := range ratings {
		if len(unit) != raters {
			return Agreement{}, fmt.Errorf("annotate: unit %d has %d ratings, want %d", i, len(unit), raters)
		}
		counts := map[string]float64{}
		for _, l := range unit {
			counts[l]++
			total[l]++
		}
		sq := 0.0
		for _, c := range counts {
			sq += c * c
		}
		sumP += (sq - r) / (r * (r - 1))
	}
	n := float64(len(ratings))
	pe := 0.0
	for _, k := range labels(total) {
		p := total[k] / (n * r)
		pe += p * p
	}
	return finish(Agreement{Method: "fleiss", Raters: raters, Units: len(ratings), Observed: sumP / n, Expected: pe}), nil
}

func finish(a Agreement) Agreement {
	if 1-a.Expected > 1e-12 {
		a.Kappa, a.Defined = (a.Observed-a.Expected)/(1-a.Expected), true
	}
	return a
}

// labels returns the labels of the maps, sorted, so that sums run in a
// fixed order.
func labels(ms ...map[string]float64) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}
