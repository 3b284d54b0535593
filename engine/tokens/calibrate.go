package tokens

import (
	"math"
	"sort"
)

// Calibration turns a counter's measure of a request's input into the
// provider's. The provider counts what the log does not hold (the system
// prompt, tool schemas, injected reminders) and tokenizes with its own
// vocabulary, so reported ≈ overhead + ratio × counted, with an overhead
// and a ratio of their own for each thread (a subagent has its own prompt)
// and model.
//
// The fit is online: request k is predicted only from the requests before
// it that reported usage, as a live budget must be enforced before the
// request is sent. The ratio is the least-squares slope, through the
// origin, of the changes in reported input against the changes in counted
// input between consecutive reported requests (the shared prefix cancels
// out, so a long session's early requests do not drown the fit), pulled
// toward 1 by a prior worth a hundred tokens of change; the
// overhead then anchors the line at the latest reported request. Before a
// group has a reported request, a prediction is the counted size itself.

// Observation is one request for calibration.
type Observation struct {
	// Group names the calibration group: requests of one thread and model.
	Group string
	// Counted is the request's input by the counter.
	Counted int
	// Reported is the input the provider reported, 0 when it did not.
	Reported int
}

// Prediction is a request's calibrated input.
type Prediction struct {
	Tokens   int     `json:"tokens"`
	Overhead float64 `json:"overhead"`
	Ratio    float64 `json:"ratio"`
	// Basis is how many earlier reported requests of the group the
	// prediction rests on; 0 means it is the counted size.
	Basis int `json:"basis"`
}

// Calibration summarises a calibration: the fit of its largest group at
// its end, and the errors of the online predictions.
type Calibration struct {
	Counter  string  `json:"counter"`
	Overhead float64 `json:"overhead"`
	Ratio    float64 `json:"ratio"`
	// N is the number of requests with reported usage.
	N int `json:"n"`
	// Scored is the number of requests the errors are over: those with
	// reported usage after each group's first three.
	Scored int `json:"scored"`
	// MedianError and P95Error are |predicted − reported| / reported.
	MedianError float64 `json:"medianError"`
	P95Error    float64 `json:"p95Error"`
}

// Ratio bounds: a fit outside them says more about the data (a compaction
// the counter cannot see) than about the tokenizer.
const (
	minRatio = 0.25
	maxRatio = 4
	// warmUp is how many reported requests of a group are not scored.
	warmUp = 3
	// prior pulls the slope toward 1 with the weight of changes totalling
	// a hundred tokens: enough that two requests whose inputs barely
	// differ cannot swing it, too little to matter once changes add up.
	prior = 100 * 100
)

// fit is one group's state.
type fit struct {
	lastCounted, lastReported float64
	n                         int // reported requests seen
	sxx, sxy                  float64
}

func (f *fit) ratio() float64 {
	return math.Min(maxRatio, math.Max(minRatio, (f.sxy+prior)/(f.sxx+prior)))
}

// Calibrate predicts every observation from the observations before it in
// its group, and summarises the fit for the counter named counter.
func Calibrate(counter string, obs []Observation) ([]Prediction, Calibration) {
	out := make([]Prediction, len(obs))
	fits := map[string]*fit{}
	var errs []float64
	cal := Calibration{Counter: counter, Ratio: 1}
	var largest *fit
	for k, o := range obs {
		f := fits[o.Group]
		if f == nil {
			f = &fit{}
			fits[o.Group] = f
		}
		p := Prediction{Tokens: o.Counted, Ratio: 1}
		if f.n > 0 {
			p.Ratio = f.ratio()
			p.Overhead = f.lastReported - p.Ratio*f.lastCounted
			p.Basis = f.n
			p.Tokens = max(0, int(math.Round(p.Overhead+p.Ratio*float64(o.Counted))))
		}
		out[k] = p
		if o.Reported <= 0 {
			continue
		}
		cal.N++
		if f.n >= warmUp {
			errs = append(errs, math.Abs(float64(p.Tokens-o.Reported))/float64(o.Reported))
		}
		c, r := float64(o.Counted), float64(o.Reported)
		if f.n > 0 {
			if dc := c - f.lastCounted; dc != 0 {
				f.sxx += dc * dc
				f.sxy += dc * (r - f.lastReported)
			}
		}
		f.lastCounted, f.lastReported = c, r
		f.n++
		if largest == nil || f.n > largest.n {
			largest = f
		}
	}
	if largest != nil {
		cal.Ratio = largest.ratio()
		cal.Overhead = largest.lastReported - cal.Ratio*largest.lastCounted
	}
	cal.Scored = len(errs)
	if len(errs) > 0 {
		sort.Float64s(errs)
		cal.MedianError = quantile(errs, 0.5)
		cal.P95Error = quantile(errs, 0.95)
	}
	return out, cal
}

// quantile returns the q-quantile of sorted xs by the nearest rank.
func quantile(sorted []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
