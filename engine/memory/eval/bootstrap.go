package eval

import (
	"math/rand/v2"
	"sort"
)

// Interval is a mean difference with its bootstrap 95% interval.
type Interval struct {
	Mean float64 `json:"mean"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	N    int     `json:"n"`
}

// Excludes0 reports whether the interval lies wholly on one side of 0.
func (iv Interval) Excludes0() bool { return iv.Low > 0 || iv.High < 0 }

// PairedBootstrap returns the mean of a[i] − b[i] and its percentile 95%
// interval over resamples of the pairs, drawn with a fixed seed so that a
// report can be reproduced.
func PairedBootstrap(a, b []float64, resamples int) Interval {
	n := min(len(a), len(b))
	iv := Interval{N: n}
	if n == 0 {
		return iv
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = a[i] - b[i]
		iv.Mean += d[i]
	}
	iv.Mean /= float64(n)
	r := rand.New(rand.NewPCG(20261124, 1))
	means := make([]float64, resamples)
	for k := range means {
		s := 0.0
		for i := 0; i < n; i++ {
			s += d[r.IntN(n)]
		}
		means[k] = s / float64(n)
	}
	sort.Float64s(means)
	iv.Low = means[int(0.025*float64(resamples))]
	iv.High = means[min(resamples-1, int(0.975*float64(resamples)))]
	return iv
}
