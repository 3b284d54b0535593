package debug

import (
	"context"

	"ctxscope/engine/cwl"
)

// Prepare returns the prepared replay of p's thread, counter and episode
// mode: the caller's, which may keep prepared replays (the app holds
// them by session revision).
type Prepare func(ctx context.Context, p Params) (*Replay, error)

// Resolve prepares the replay p asks for, with its defaults filled in, and
// returns p as resolved. They are resolved here and nowhere else:
//   - episodes "" are declared ones when the thread may declare some
//     (declares, see [DeclaresEpisodes]) and its replay finds any, else
//     inferred ones;
//   - a budget of 0 is [DefaultBudget] of the thread's uncapped input;
//   - a counter "" is resolved by [New] (calibrated when the thread
//     reports usage, else the estimator); the replay's CounterName says
//     which.
func Resolve(ctx context.Context, p Params, declares func() bool, prepare Prepare) (*Replay, Params, error) {
	auto := p.Episodes == ""
	if auto {
		p.Episodes = string(cwl.Declared)
		if !declares() {
			p.Episodes = string(cwl.Inferred) // no need to prepare the declared replay to find it has none
		}
	}
	r, err := prepare(ctx, p)
	if err != nil {
		return nil, p, err
	}
	if auto && p.Episodes == string(cwl.Declared) && r.Uncapped().EpisodeCount == 0 {
		p.Episodes = string(cwl.Inferred)
		if r, err = prepare(ctx, p); err != nil {
			return nil, p, err
		}
	}
	if p.Budget == 0 {
		p.Budget = DefaultBudget(r.Uncapped().Before)
	}
	return r, p, nil
}
