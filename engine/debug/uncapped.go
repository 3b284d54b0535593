package debug

import (
	"ctxscope/engine/cwl"
	"ctxscope/engine/report"
	"ctxscope/engine/session"
)

// Uncapped is what every timeline of a prepared replay shows alike,
// whatever its policy and budget: each input uncapped, the shared context
// it belongs to, its line in the file, its calibrated overhead, the
// episodes and the source agent's compactions. It is measured once, when
// the replay is prepared, so that a step of a τ drag replays only what τ
// changes. Its slices are shared by every [Timeline] of the replay and
// must not be changed.
type Uncapped struct {
	Before       []int
	Context      []int
	Lines        []int
	Unlogged     []int
	EpisodeCount int
	Compactions  []SourceCompaction
	// Live are the recording proxy's decisions, by request, and LiveCost
	// what the run cost as recorded and without eviction (nil when the
	// proxy made no decision).
	Live     []Live
	LiveCost *LiveCost
	// Window is the context window of the thread's last request's model
	// that records one (0: unknown).
	Window int
}

// Uncapped returns what no policy or budget changes in r's timelines.
func (r *Replay) Uncapped() *Uncapped { return r.uncapped }

// measureUncapped replays r without a policy to measure what no budget
// changes. It runs before r is shared.
func (r *Replay) measureUncapped() error {
	t, err := r.rep.Run(r.runOptions(Params{Policy: cwl.PolicyNone, Budget: 1}))
	if err != nil {
		return err
	}
	n := len(t.Requests)
	u := &Uncapped{Before: make([]int, n), Context: make([]int, n), Lines: make([]int, n), Unlogged: make([]int, n), Compactions: []SourceCompaction{}, Live: []Live{}}
	for k := range t.Requests {
		pt := &t.Requests[k]
		u.Before[k], u.Context[k], u.Lines[k] = pt.Before, pt.Context, r.reqs[k].Entry.Line
		if rewritten, note, ok := session.ReadLiveNote(r.reqs[k].Entry); ok {
			u.Live = append(u.Live, Live{Request: k, Rewritten: rewritten, Note: note})
		}
	}
	if len(u.Live) > 0 {
		usage := make([]*session.Usage, n)
		for k := range usage {
			if m := r.reqs[k].Entry.Message; m != nil {
				usage[k] = m.Usage
			}
		}
		u.LiveCost = &LiveCost{Recorded: cwl.RecordedCost(usage, r.runOptions(Params{})), Unmodified: t.Cost}
	}
	for k, s := range r.truth.scales {
		if s.Overhead > 0 {
			u.Unlogged[k] = int(s.Overhead + 0.5)
		}
	}
	for _, e := range r.rep.ContextEpisodes() {
		for _, ep := range e.List {
			if ep.Kind != cwl.KindUnannotated {
				u.EpisodeCount++
			}
		}
	}
	for _, c := range report.Compactions(r.Thread, r.reqs) {
		u.Compactions = append(u.Compactions, SourceCompaction{Next: c.NextRequest, Line: c.Line, TokensBefore: c.TokensBefore})
	}
	for k := len(r.truth.prices) - 1; k >= 0 && u.Window == 0; k-- {
		u.Window = r.truth.prices[k].Window
	}
	r.uncapped = u
	return nil
}
