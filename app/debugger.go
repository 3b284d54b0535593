package app

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"ctxscope/engine/cwl"
	"ctxscope/engine/debug"
	"ctxscope/engine/revcache"
	"ctxscope/engine/wire"
	"ctxscope/graphviz"
)

// previewBytes is how much of each block's text a context view carries;
// the rest is fetched by Block.
const previewBytes = 160

// maxSweepBudgets bounds a sweep, so that one call stays interactive.
const maxSweepBudgets = 400

// maxPrepared bounds the threads kept prepared; the least recently used
// goes first.
const maxPrepared = 8

// Debugger is the bound service of the session debugger: replays of one
// thread under a policy and budget, the exact context at a request, the
// episode graph, sweeps, search hits located among requests, and exports.
// A thread is prepared once per counter and episode mode (calls that ask
// for it at once wait for one preparation) and kept until its session
// changes or it is the least recently used of more than maxPrepared.
type Debugger struct {
	app *App

	// replays are the prepared threads, by session key, "/" and the
	// params that decide the preparation.
	replays *revcache.Cache[*preparedReplay]

	// wires are the proxy's recordings summarised for matching, by
	// session key and revision (debugger_wire.go).
	wires *revcache.Cache[wire.Candidate]

	memories sessionMemories
}

// preparedReplay is a debug.Replay with the layout of its episode graphs.
type preparedReplay struct {
	*debug.Replay
	mu      sync.Mutex
	layouts map[int]*graphLayout // by context
}

type graphLayout struct {
	graph  *graphviz.Graph
	layout *graphviz.Layout
}

func newDebugger(a *App) *Debugger {
	return &Debugger{app: a, replays: revcache.New[*preparedReplay](maxPrepared), wires: revcache.New[wire.Candidate](maxWireCandidates),
		memories: newSessionMemories()}
}

// replay returns the prepared replay for a session key and params,
// preparing it on first use or after the session changed. It returns
// ctx's cause when ctx ends first.
func (d *Debugger) replay(ctx context.Context, key string, p debug.Params) (*preparedReplay, error) {
	if err := validParams(p); err != nil {
		return nil, err
	}
	o, err := d.app.sessions.get(ctx, key)
	if err != nil {
		return nil, err
	}
	r, err := d.replays.Get(ctx, key+"/"+p.Key(), o.Revision(), func(ctx context.Context, _ *preparedReplay, _ bool) (*preparedReplay, error) {
		l, err := o.Ledger(debug.LedgerCounter(p.Counter))
		if err != nil {
			return nil, err
		}
		rep, err := debug.New(ctx, o.Session, p, l)
		if err != nil {
			return nil, err
		}
		return &preparedReplay{Replay: rep, layouts: map[int]*graphLayout{}}, nil
	})
	if err == nil && p.Counter == "" {
		// The page asks with the counter Go resolved from then on: that
		// is this replay, not one to prepare again (a second at paper
		// scale).
		p.Counter = r.CounterName()
		d.replays.Alias(key+"/"+p.Key(), o.Revision(), r)
	}
	return r, err
}

// forget drops everything prepared for a session.
func (d *Debugger) forget(key string) {
	d.replays.Forget(key, "/")
	d.memories.forget(key)
}

func validParams(p debug.Params) error {
	if p.Budget < 0 || p.Budget > 1<<30 {
		return fmt.Errorf("budget %d out of range", p.Budget)
	}
	if p.Episodes != "" && p.Episodes != string(cwl.Declared) && p.Episodes != string(cwl.Inferred) {
		return fmt.Errorf("unknown episode mode %q (want declared or inferred)", p.Episodes)
	}
	for _, pol := range cwl.Policies {
		if p.Policy == pol || p.Policy == "" {
			return nil
		}
	}
	return fmt.Errorf("unknown policy %q (want one of %s)", p.Policy, strings.Join(cwl.Policies, ", "))
}

// Counters lists the counters a replay takes: calibrated (the provider's
// tokens, fitted on the usage the thread reports), then the estimator and
// the BPE counters. A replay whose counter is "" calibrates when the
// thread reports usage and estimates when it does not.
func (d *Debugger) Counters(ctx context.Context) []string {
	d.app.called("Debugger.Counters")
	return debug.Counters()
}

// Policies lists the replay policies, the default first.
func (d *Debugger) Policies(ctx context.Context) []string {
	d.app.called("Debugger.Policies")
	return cwl.Policies
}

// Threads lists the threads of a session: the main thread, subagents and
// sidechains, with their requests and branches.
func (d *Debugger) Threads(ctx context.Context, key string) ([]debug.ThreadInfo, error) {
	d.app.called("Debugger.Threads", key)
	o, err := d.app.sessions.get(ctx, key)
	if err != nil {
		return nil, err
	}
	return threadsOf(o), nil
}

// Replay replays a thread of a session under p's policy and budget. A
// budget of 0 asks for the default (debug.DefaultBudget), and episodes ""
// for declared episodes when the thread has any, else inferred ones; the
// timeline says which were used. Requests over budget come without the
// reason (Debugger.Context gives it per request; ExportReplay gives them
// all). A newer call supersedes one that is still preparing.
func (d *Debugger) Replay(ctx context.Context, key string, p debug.Params) (*debug.Timeline, error) {
	d.app.called("Debugger.Replay", key, p)
	ctx, done := d.app.latest.begin(ctx, "Debugger.Replay")
	defer done()
	r, p, err := d.resolved(ctx, key, p)
	if err != nil {
		return nil, err
	}
	return r.TimelineForView(p)
}

// ReplayStep is Replay for a view that holds a timeline of the same
// thread, counter and episode mode: it returns only what the policy and
// the budget change (debug.Step). Its Requests tells whether the session
// grew since that timeline. split asks for the kept input's split by
// category too; a view leaves it out while τ is dragged, and asks for it
// at the τ the drag ends on. A newer call of either supersedes one that
// is still preparing.
func (d *Debugger) ReplayStep(ctx context.Context, key string, p debug.Params, split bool) (*debug.Step, error) {
	d.app.called("Debugger.ReplayStep", key, p, split)
	ctx, done := d.app.latest.begin(ctx, "Debugger.Replay")
	defer done()
	r, p, err := d.resolved(ctx, key, p)
	if err != nil {
		return nil, err
	}
	return r.Step(p, split)
}

// resolved prepares the replay p asks for, with its defaults filled in
// (debug.Resolve), from the prepared replays the app holds.
func (d *Debugger) resolved(ctx context.Context, key string, p debug.Params) (*preparedReplay, debug.Params, error) {
	var last *preparedReplay
	declares := func() bool {
		o, err := d.app.sessions.get(ctx, key)
		return err != nil || declaresEpisodes(o, p.Thread)
	}
	prepare := func(ctx context.Context, p debug.Params) (*debug.Replay, error) {
		r, err := d.replay(ctx, key, p)
		if err != nil {
			return nil, err
		}
		last = r
		return r.Replay, nil
	}
	_, p, err := debug.Resolve(ctx, p, declares, prepare)
	if err != nil {
		return nil, p, err
	}
	return last, p, nil
}

// Context returns the exact input of request k under p, with every
// missing part attributed, breakdowns and the diff from request k−1.
func (d *Debugger) Context(ctx context.Context, key string, p debug.Params, k int) (*debug.Context, error) {
	d.app.called("Debugger.Context", key, p, k)
	ctx, done := d.app.latest.begin(ctx, "Debugger.Context")
	defer done()
	r, err := d.replay(ctx, key, p)
	if err != nil {
		return nil, err
	}
	return r.Context(p, k, previewBytes)
}

// Block returns the whole text of block b of message i of request k's
// context, for blocks a context view shows cut.
func (d *Debugger) Block(ctx context.Context, key string, p debug.Params, k, i, b int) (string, error) {
	d.app.called("Debugger.Block", key, p, k, i, b)
	r, err := d.replay(ctx, key, p)
	if err != nil {
		return "", err
	}
	return r.BlockText(k, i, b)
}

// Sweep replays each policy at every budget from `from` to `to` in steps
// of step (at most 400 budgets).
func (d *Debugger) Sweep(ctx context.Context, key string, p debug.Params, policies []string, from, to, step int) ([]cwl.Curve, error) {
	d.app.called("Debugger.Sweep", key, p, policies, from, to, step)
	if step <= 0 || to < from || (to-from)/step+1 > maxSweepBudgets {
		return nil, fmt.Errorf("a sweep takes at most %d budgets with a positive step", maxSweepBudgets)
	}
	for _, pol := range policies {
		if err := validParams(debug.Params{Policy: pol}); err != nil || pol == "" {
			return nil, fmt.Errorf("unknown policy %q", pol)
		}
	}
	ctx, done := d.app.latest.begin(ctx, "Debugger.Sweep")
	defer done()
	r, err := d.replay(ctx, key, p)
	if err != nil {
		return nil, err
	}
	return r.Sweep(ctx, policies, from, to, step)
}
