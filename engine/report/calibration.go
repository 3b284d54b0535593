package report

import (
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// ThreadCalibration holds the calibrated input of each request of a
// thread, in the order of session.BuildRequests.
type ThreadCalibration struct {
	Thread      *session.Thread
	Requests    []*session.Request
	Points      []Point // the counter's measure of each request
	Predictions []tokens.Prediction
}

// Calibrate measures every request of threads with l and calibrates the
// counts against the usage the responses report, one group per thread
// and model (see tokens.Calibrate). It returns each thread's requests with
// their predictions, and the summary over all threads.
func Calibrate(threads []*session.Thread, l *tokens.Ledger) ([]ThreadCalibration, tokens.Calibration) {
	out := make([]ThreadCalibration, len(threads))
	var obs []tokens.Observation
	for i, t := range threads {
		reqs := session.BuildRequests(t)
		pts := Timeline(reqs, l)
		out[i] = ThreadCalibration{Thread: t, Requests: reqs, Points: pts}
		for k, q := range reqs {
			o := tokens.Observation{Group: t.ID + "\x00" + q.Entry.Message.Model, Counted: pts[k].Tokens}
			if u := q.Entry.Message.Usage; u != nil {
				o.Reported = u.Prompt()
			}
			obs = append(obs, o)
		}
	}
	pred, cal := tokens.Calibrate(l.Counter().Name(), obs)
	at := 0
	for i := range out {
		out[i].Predictions = pred[at : at+len(out[i].Requests)]
		at += len(out[i].Requests)
	}
	return out, cal
}
