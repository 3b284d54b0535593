package debug

import (
	"context"
	"fmt"
	"sync"

	"ctxscope/engine/cwl"
	"ctxscope/engine/report"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// Params choose a replay: the policy and budget, the counter and the
// episode mode the thread was prepared with.
type Params struct {
	Thread   int    `json:"thread"`
	Counter  string `json:"counter"`
	Episodes string `json:"episodes"`
	Policy   string `json:"policy"`
	Budget   int    `json:"budget"`
}

// Key names what a prepared [Replay] depends on besides the session.
func (p Params) Key() string { return fmt.Sprintf("%d/%s/%s", p.Thread, p.Counter, p.Episodes) }

// Replay is one thread of a session prepared for replays with one counter
// and episode mode. Its methods are safe for concurrent use. Timelines and
// sweeps run on one replayer and the exact views of single requests
// (contexts, episode states) on its twin ([cwl.Replayer.Twin]), made on
// first use, so that explaining a request never delays a timeline while τ
// is dragged.
type Replay struct {
	Thread *session.Thread
	ledger *tokens.Ledger
	reqs   []*session.Request

	*Locator

	mu  sync.Mutex
	rep *cwl.Replayer

	viewMu  sync.Mutex
	viewRep *cwl.Replayer

	truth    truth
	compact  cwl.CompactOptions
	uncapped *Uncapped
	// source is the sentence that says what the log holds of a request
	// (sourceNote).
	source string
}

// viewReplayer returns the replayer of single-request views, a twin of
// the timeline's made on first use. The caller holds r.viewMu.
func (r *Replay) viewReplayer() *cwl.Replayer {
	if r.viewRep == nil {
		r.viewRep = r.rep.Twin()
	}
	return r.viewRep
}

// New prepares thread p.Thread of s with p's counter (see resolveCounter:
// "" calibrates when the thread reports usage) and episode mode ("" for
// declared). A ledger already holding the measurements of
// LedgerCounter(p.Counter) may be passed to reuse them; nil starts one.
// Measuring the thread's text, the part that grows with it, stops with
// ctx's cause when ctx ends.
func New(ctx context.Context, s *session.Session, p Params, l *tokens.Ledger) (*Replay, error) {
	return NewWith(ctx, s, p, l, Options{})
}

// NewWith is [New] with options the debugger's view does not choose (the
// command line's replay and sweep take them as flags).
func NewWith(ctx context.Context, s *session.Session, p Params, l *tokens.Ledger, o Options) (*Replay, error) {
	if p.Thread < 0 || p.Thread >= len(s.Threads) {
		return nil, fmt.Errorf("debug: no thread %d (the session has %d)", p.Thread, len(s.Threads))
	}
	t := s.Threads[p.Thread]
	reqs := session.BuildRequests(t)
	counter, err := resolveCounter(p.Counter, reqs)
	if err != nil {
		return nil, err
	}
	if l == nil {
		c, err := tokens.ByName(LedgerCounter(counter))
		if err != nil {
			return nil, err
		}
		l = tokens.NewLedger(c)
	}
	if err := l.Prefetch(ctx, threadMessages(t)); err != nil {
		return nil, err
	}
	opts := cwl.PrepareOptions{Episodes: cwl.EpisodeMode(p.Episodes), Tools: o.Tools, File: s.Source}
	r, err := cwl.Prepare(reqs, l, opts)
	if err != nil {
		return nil, err
	}
	tr, err := newTruth(r, counter, o.Prices)
	if err != nil {
		return nil, err
	}
	rep := &Replay{Thread: t, ledger: l, reqs: reqs, rep: r, Locator: NewLocator(t, reqs), truth: tr, compact: o.Compact, source: sourceNote(s, t)}
	if err := rep.measureUncapped(); err != nil {
		return nil, err
	}
	return rep, nil
}

// DeclaresEpisodes reports whether thread i of s may declare episodes:
// whether a delimiter result in it starts one (true for a thread s does
// not have, which New then reports). A thread that does not has no
// declared episodes, so that a view letting it choose replays its
// inferred episodes without preparing the declared ones to find out.
func DeclaresEpisodes(s *session.Session, i int) bool {
	if i < 0 || i >= len(s.Threads) {
		return true
	}
	return cwl.StartsEpisodes(threadMessages(s.Threads[i]))
}

// threadMessages lists the messages of t's entries.
func threadMessages(t *session.Thread) []*session.Message {
	var out []*session.Message
	for _, e := range t.Entries {
		if e.Message != nil {
			out = append(out, e.Message)
		}
	}
	return out
}

// Requests returns the number of requests of the thread.
func (r *Replay) Requests() int { return len(r.reqs) }

// Mark is one eviction or restoration on the timeline. A view's timeline
// ([Replay.TimelineForView]) leaves out its Name, Freed and Step.
type Mark struct {
	Request int    `json:"k"`
	Episode int    `json:"episode"`
	Name    string `json:"name,omitempty"`
	Level   int    `json:"level"`
	Freed   int    `json:"freed,omitempty"`
	Step    string `json:"step,omitempty"`
}

// Over is a request left over budget, with why (empty in
// [Replay.TimelineForView]).
type Over struct {
	Request int    `json:"k"`
	Over    int    `json:"over"`
	Why     string `json:"why,omitempty"`
}

// Live is what the recording proxy did to one request under live
// eviction: forwarded rewritten or as sent, and its note (how many blocks
// it evicted, the input's size before and after in the proxy's count, or
// why it forwarded the request as sent).
type Live struct {
	Request   int    `json:"k"`
	Rewritten bool   `json:"rewritten"`
	Note      string `json:"note"`
}

// LiveCost is what a run recorded through the proxy under live eviction
// cost: Recorded from the usage the provider reported for the requests
// as forwarded, Unmodified from a replay without eviction of the requests
// as the agent sent them; both under the same prices and cache model.
type LiveCost struct {
	Recorded   cwl.CostSummary `json:"recorded"`
	Unmodified cwl.CostSummary `json:"unmodified"`
}

// SourceCompaction is the source agent's own compaction, before request
// Next (-1: after the last request).
type SourceCompaction struct {
	Next         int `json:"next"`
	Line         int `json:"line"`
	TokensBefore int `json:"tokensBefore"`
}

// Timeline is a replay in columns: index k of every column is request k.
type Timeline struct {
	Policy     string   `json:"policy"`
	Episodes   string   `json:"episodes"`
	Counter    string   `json:"counter"`
	Budget     int      `json:"budget"`
	Categories []string `json:"categories"`
	// Before is each input uncapped, After under the policy, Cached the
	// part of After shared with the previous input.
	Before []int `json:"before"`
	After  []int `json:"after"`
	Cached []int `json:"cached"`
	// Cats holds one column per category: Cats[c][k] splits After[k].
	Cats [][]int32 `json:"cats"`
	// Context is each request's shared context: a new one starts at a
	// compaction by the source agent or on another branch.
	Context     []int              `json:"context"`
	Lines       []int              `json:"lines"`
	Evictions   []Mark             `json:"evictions"`
	Restored    []Mark             `json:"restored"`
	Unreachable []Over             `json:"unreachable"`
	Compactions []SourceCompaction `json:"compactions"`
	// Live are the decisions the recording proxy made as the agent ran,
	// for a session it recorded under live eviction: the requests it
	// rewrote, and those it had a reason to forward as sent.
	Live []Live `json:"live"`
	// LiveCost, for such a session, sets what the run cost as it happened
	// beside what it would have cost as the agent sent it.
	LiveCost    *LiveCost       `json:"liveCost,omitempty"`
	Cost        cwl.CostSummary `json:"cost"`
	Assumptions []string        `json:"assumptions"`
	// EpisodeCount counts the declared or inferred episodes over every
	// context (unannotated runs left out).
	EpisodeCount int `json:"episodeCount"`
	// CounterName is the counter in Params' terms ("calibrated",
	// "estimate", ...), which "" resolved to; CounterNote says in a
	// sentence what the figures are.
	CounterName string `json:"counterName"`
	CounterNote string `json:"counterNote"`
	// Reported and ReportedOutput are each request's input and output as
	// the provider reported them (0: not reported).
	Reported       []int `json:"reported"`
	ReportedOutput []int `json:"reportedOutput"`
	// Unlogged is each request's calibrated overhead: what the provider
	// counted that the log does not hold (0 before the thread's first
	// reported request).
	Unlogged    []int              `json:"unlogged"`
	Calibration tokens.Calibration `json:"calibration"`
	// Window is the context window of the thread's last request's model
	// (as the session recorded it, else from the price catalog); 0 when
	// unknown.
	Window int `json:"window"`
}

// Timeline replays the thread under p's policy and budget.
func (r *Replay) Timeline(p Params) (*Timeline, error) {
	return r.timeline(p, timelineParts{detail: true, split: true})
}

// TimelineForView is [Replay.Timeline] without what a view shows for one
// request at a time, from its context ([Replay.Context]): the sentence
// that says why each request over budget is over (Over.Why), and the
// episode name, tokens freed and step of each eviction (Mark's Name,
// Freed, Step; a view draws and counts marks by request and level). The
// sentences were a quarter of a long session's timeline, and the names
// and sizes half of a τ step at paper scale, written again at every step
// of a drag.
func (r *Replay) TimelineForView(p Params) (*Timeline, error) {
	return r.timeline(p, timelineParts{split: true})
}

// timelineParts says which of a timeline's optional parts to work out:
// the detail of each request over budget and each mark (Over.Why, and
// Mark's Name, Freed and Step), and the split of the kept input (Cached
// and Cats; empty when left out).
type timelineParts struct {
	detail, split bool
}

func (r *Replay) timeline(p Params, parts timelineParts) (*Timeline, error) {
	var out *Timeline
	err := r.run(p, parts, func(t *cwl.Timeline) { out = r.view(t, parts) })
	return out, err
}

// run replays the thread under p, working out only parts, and hands the
// run to use, which copies what it keeps: the run's timeline is lent
// ([cwl.Replayer.RunWith]) and written over by the next.
func (r *Replay) run(p Params, parts timelineParts, use func(t *cwl.Timeline)) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	o := r.runOptions(p)
	o.Lean, o.Unsplit = !parts.detail, !parts.split
	return r.rep.RunWith(o, func(t *cwl.Timeline) error {
		use(t)
		return nil
	})
}

// markCounts counts run t's evictions, restorations and requests left
// over budget, which a copy of the run makes room for.
func markCounts(t *cwl.Timeline) (evicted, restored, over int) {
	for k := range t.Requests {
		pt := &t.Requests[k]
		evicted += len(pt.Evictions)
		restored += len(pt.Restored)
		if pt.Unreachable != nil {
			over++
		}
	}
	return evicted, restored, over
}

// view copies what the view shows of run t, which it keeps nothing of.
func (r *Replay) view(t *cwl.Timeline, parts timelineParts) *Timeline {
	n := len(t.Requests)
	u := r.uncapped
	evicted, restored, over := markCounts(t)
	out := &Timeline{Policy: t.Policy, Episodes: string(t.Episodes), Counter: t.Counter, Budget: t.Budget, Categories: t.Categories,
		Before: u.Before, After: make([]int, n), Cached: []int{}, Context: u.Context, Lines: u.Lines,
		Cats: [][]int32{}, Evictions: make([]Mark, 0, evicted), Restored: make([]Mark, 0, restored), Unreachable: make([]Over, 0, over),
		Compactions: u.Compactions, Live: u.Live, LiveCost: u.LiveCost, Cost: t.Cost, Assumptions: t.Assumptions, EpisodeCount: u.EpisodeCount,
		CounterName: r.truth.counter, CounterNote: r.truth.counterNote() + r.source, Reported: r.truth.reported, ReportedOutput: r.truth.output,
		Unlogged: u.Unlogged, Calibration: r.truth.calibration, Window: u.Window}
	if parts.split {
		out.Cached, out.Cats = splitColumns(t)
	}
	eps := r.rep.ContextEpisodes()
	for k := range t.Requests {
		pt := &t.Requests[k]
		out.After[k] = pt.After
		list := eps[pt.Context].List
		for _, ev := range pt.Evictions {
			m := Mark{Request: k, Episode: ev.Episode, Level: ev.Level}
			if parts.detail {
				m.Name, m.Freed, m.Step = episodeName(list, ev.Episode, ev.Step), ev.Freed, ev.Step
			}
			out.Evictions = append(out.Evictions, m)
		}
		for _, rs := range pt.Restored {
			m := Mark{Request: k, Episode: rs.Episode, Level: rs.Level}
			if parts.detail {
				m.Name = episodeName(list, rs.Episode, "")
			}
			out.Restored = append(out.Restored, m)
		}
		if u := pt.Unreachable; u != nil {
			o := Over{Request: k, Over: u.Over}
			if parts.detail {
				o.Why = u.Describe(list)
			}
			out.Unreachable = append(out.Unreachable, o)
		}
	}
	return out
}

// splitColumns returns run t's split of the kept input: the part cached
// of each request's, and one column per category.
func splitColumns(t *cwl.Timeline) (cached []int, cats [][]int32) {
	n := len(t.Requests)
	cached, cats = make([]int, n), make([][]int32, len(t.Categories))
	for c := range cats {
		cats[c] = make([]int32, n)
	}
	for k := range t.Requests {
		pt := &t.Requests[k]
		cached[k] = pt.Cached
		for c, v := range pt.Cats {
			cats[c][k] = v
		}
	}
	return cached, cats
}

// episodeName names episode i of list, or the step of an eviction that no
// episode made (the compact policy's summaries).
func episodeName(list []cwl.Episode, i int, step string) string {
	if i >= 0 && i < len(list) {
		return list[i].Name
	}
	if step != "" {
		return step
	}
	return "?"
}

// Sweep replays each policy at every budget from `from` to `to` in steps
// of step. It stops with ctx's cause when ctx ends.
func (r *Replay) Sweep(ctx context.Context, policies []string, from, to, step int) ([]cwl.Curve, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rep.Sweep(ctx, policies, from, to, step, r.runOptions(Params{}))
}

// DefaultBudget is the τ a session opens with when none is chosen: half
// the largest uncapped input, rounded to two significant digits, so that
// a first look shows evictions.
func DefaultBudget(before []int) int {
	peak := 0
	for _, b := range before {
		peak = max(peak, b)
	}
	half := peak / 2
	unit := 1
	for half/unit >= 100 {
		unit *= 10
	}
	return max(1, half/unit*unit)
}

// sourceNote is a sentence, with a leading space, on what the log of
// thread t holds of each request: the request as sent (Claude Code's
// request records), or what it lacks, as the real agents' tests measured
// it (report.InputSource); "" when that is not known.
func sourceNote(s *session.Session, t *session.Thread) string {
	records, lacks := report.InputSource(s, t)
	switch {
	case records:
		return " The log holds each request as the agent sent it: its system prompt and tool schemas are the context's first message."
	case lacks != "":
		return " The log lacks " + lacks + " of each request."
	}
	return ""
}
