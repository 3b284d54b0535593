package debug

import (
	"fmt"

	"ctxscope/engine/cwl"
	"ctxscope/engine/pricing"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// CounterCalibrated names the calibrated counter: the provider's tokens,
// fitted online on the usage the thread reports over the estimator's
// counts (see tokens.Calibrate).
const CounterCalibrated = "calibrated"

// Counters lists the counters a replay takes, the calibrated one first.
func Counters() []string { return append([]string{CounterCalibrated}, tokens.Names...) }

// LedgerCounter names the counter whose ledger a replay with counter
// measures with: the estimator for the calibrated counter and for the
// default ("").
func LedgerCounter(counter string) string {
	if counter == CounterCalibrated || counter == "" {
		return "estimate"
	}
	return counter
}

// reportsUsage reports whether any request of reqs has provider usage.
func reportsUsage(reqs []*session.Request) bool {
	for _, q := range reqs {
		if u := q.Entry.Message.Usage; u != nil && u.Prompt() > 0 {
			return true
		}
	}
	return false
}

// resolveCounter picks the counter a replay uses: the one asked for, or,
// for "", the calibrated counter when the thread reports usage and the
// estimator when it does not.
func resolveCounter(asked string, reqs []*session.Request) (string, error) {
	switch {
	case asked == "" && reportsUsage(reqs):
		return CounterCalibrated, nil
	case asked == "":
		return "estimate", nil
	case asked == CounterCalibrated && !reportsUsage(reqs):
		return "", fmt.Errorf("debug: this thread records no provider usage to calibrate on; use estimate, o200k or cl100k")
	}
	return asked, nil
}

// CounterName is the counter the replay counts with, in [Params] terms:
// what "" resolved to ("calibrated" when the thread reports usage, else
// "estimate"), or the counter asked for.
func (r *Replay) CounterName() string { return r.truth.counter }

// truth is what a prepared replay knows of the provider: each request's
// reported input and output, the online calibration, and each request's
// price from the catalog.
type truth struct {
	counter     string // the resolved counter
	reported    []int
	output      []int
	scales      []cwl.Scale
	calibration tokens.Calibration
	prices      []cwl.RequestPrice
	priceSource string
	flat        cwl.Prices // one price for every request, instead of prices
}

// newTruth calibrates rep and prices its requests: at flat prices when
// they are set, else each request at its model's price in the catalog.
func newTruth(rep *cwl.Replayer, counter string, flat cwl.Prices) (truth, error) {
	t := truth{counter: counter, flat: flat}
	t.reported, t.output = rep.Reported()
	t.scales, t.calibration = rep.Calibrate()
	if flat != (cwl.Prices{}) {
		return t, nil
	}
	catalog, err := pricing.Default()
	if err != nil {
		return t, err
	}
	t.prices, t.priceSource = rep.PricesFromCatalog(catalog), catalog.Source.String()
	return t, nil
}

// calibrated reports whether the replay counts in provider tokens.
func (t *truth) calibrated() bool { return t.counter == CounterCalibrated }

// runOptions turns params into replay options: the policy and budget,
// the prices, the compact policy's sizes, and in calibrated replays each
// request's scale.
func (r *Replay) runOptions(p Params) cwl.RunOptions {
	o := cwl.RunOptions{Policy: p.Policy, Budget: p.Budget, Prices: r.truth.flat, RequestPrices: r.truth.prices, PriceSource: r.truth.priceSource,
		Compact: r.compact}
	if r.truth.calibrated() {
		o.Calibration = r.truth.scales
	}
	return o
}

// counterNote says in a sentence what the replay's token figures are.
func (t *truth) counterNote() string {
	c := t.calibration
	switch {
	case t.calibrated():
		return fmt.Sprintf("Tokens are the provider's, calibrated online on the usage %d requests of this thread report: each request's input is its unlogged part (system prompt, tool schemas: what the provider counted that the log does not hold) plus a ratio times the estimator's count, both fitted on the requests before it (now %.0f + %.3f × estimate; online error median %.1f%%, p95 %.1f%%).",
			c.N, c.Overhead, c.Ratio, 100*c.MedianError, 100*c.P95Error)
	case c.N > 0:
		return fmt.Sprintf("Tokens are the %s counter's over the logged messages only; the line shows what the provider reported, which also counts the system prompt and tool schemas the log does not hold.", t.counter)
	}
	return fmt.Sprintf("Tokens are the %s counter's over the logged messages only; this thread records no provider usage to compare with.", t.counter)
}
