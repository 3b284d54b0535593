package cwl

import (
	"fmt"
	"math"

	"ctxscope/engine/cwl/protocol"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// Replayer holds everything a replay needs that does not depend on the
// budget or the policy: one [Plan] per distinct request context, its
// episodes and episode graph, and the per-request facts the cost model
// uses. Preparing tokenizes each message once; every later [Replayer.Run]
// is arithmetic over dense arrays, cheap enough to re-run while a user
// drags the budget.
type Replayer struct {
	Mode    EpisodeMode
	Counter string
	reqs    []*session.Request
	ctxs    []*replayCtx
	reqCtx  []int32   // context of each request
	shared  []int32   // leading messages pointer-equal with the previous request's input
	output  []int32   // provider-reported output tokens of each response (0 unknown)
	looks   [][]int32 // per request: earlier read calls its response re-reads
	diags   []session.Diagnostic
	// lent is the timeline RunWith lends, whose points (and their
	// eviction lists) the next RunWith writes over.
	lent *Timeline
}

// replayCtx is one shared context with its plan and reusable policy state.
type replayCtx struct {
	requests []int32 // the requests in this context, in order
	plan     *Plan
	eps      *Episodes
	graph    *Graph
	segs     []Segment // the units pi-cwl processes (declared segments, or inferred episodes)
	close    []int     // message index closing each pi-cwl unit (MaxInt never)
	loose    bool      // pi-cwl units without delimiter anchors (inferred)
	paper    *paperRun
	pi       *piPasser

	segToEp []int              // episode of each pi-cwl unit
	unitsAt []int32            // unitsAt[m] counts the episodes that start before message m
	immuneP []int64            // prefix sums of what pi-cwl never evicts beyond user turns: prologue and gaps
	calls   map[string][]int32 // calls by look-back key (see lookKey), built on first use

	// Per-run state.
	prevLevel []uint8 // pi-cwl: each unit's level in the previous pass
	lastN     int     // messages in the previous request's input
	lastAfter int     // the previous request's input tokens
	cut       int     // truncate: messages before cut were dropped
	compactAt int     // compact: messages before it are summarized
	summaries int
}

// PrepareOptions configures [Prepare].
type PrepareOptions struct {
	Episodes EpisodeMode // Declared (default) or Inferred
	Tools    *Classifier // nil for DefaultClassifier
	File     string      // the source file, for diagnostics
}

// Prepare builds a replayer over reqs (from session.BuildRequests) with
// ledger l.
func Prepare(reqs []*session.Request, l *tokens.Ledger, o PrepareOptions) (*Replayer, error) {
	if o.Episodes == "" {
		o.Episodes = Declared
	}
	if o.Episodes != Declared && o.Episodes != Inferred {
		return nil, fmt.Errorf("cwl: unknown episode mode %q (want declared or inferred)", o.Episodes)
	}
	r := &Replayer{Mode: o.Episodes, Counter: l.Counter().Name(), reqs: reqs,
		reqCtx: make([]int32, len(reqs)), shared: make([]int32, len(reqs)), output: make([]int32, len(reqs))}
	index := map[*session.Context]int32{}
	for k, q := range reqs {
		c, ok := index[q.Context]
		if !ok {
			rc, err := r.prepareContext(q.Context, l, o)
			if err != nil {
				return nil, err
			}
			c = int32(len(r.ctxs))
			index[q.Context] = c
			r.ctxs = append(r.ctxs, rc)
		}
		r.reqCtx[k] = c
		r.ctxs[c].requests = append(r.ctxs[c].requests, int32(k))
		if k > 0 {
			r.shared[k] = int32(sharedPrefix(reqs[k-1].Input(), q.Input()))
		}
		if u := q.Entry.Message.Usage; u != nil {
			r.output[k] = int32(u.Output)
		}
	}
	r.looks = lookBacks(r)
	return r, nil
}

func (r *Replayer) prepareContext(c *session.Context, l *tokens.Ledger, o PrepareOptions) (*replayCtx, error) {
	p := NewPlan(c.Messages, c.Entries, l, o.Tools)
	rc := &replayCtx{plan: p}
	if o.Episodes == Inferred {
		rc.eps = InferEpisodes(p)
		rc.loose = true
		for _, e := range rc.eps.List {
			if e.Kind == KindUnannotated {
				continue
			}
			rc.segs = append(rc.segs, Segment{Name: e.Name, Kind: e.Kind, Dependencies: e.Dependencies, Description: e.Description,
				Completed: e.ClosedAt >= 0, Start: e.Start, End: e.End})
			rc.close = append(rc.close, closeIndex(e.ClosedAt))
		}
	} else {
		rc.eps = DeclaredEpisodes(p)
		rc.segs = p.Segments
		for _, s := range p.Segments {
			ci := math.MaxInt
			if s.Completed {
				ci = s.End
			}
			rc.close = append(rc.close, ci)
		}
		r.diags = append(r.diags, protocol.Diagnostics(protocol.Validate(c.Messages), c.Entries, o.File)...)
		for _, pr := range rc.eps.Problems {
			r.diags = append(r.diags, session.Diagnostic{File: o.File, Severity: session.SeverityWarning, Message: "cwl: " + pr})
		}
	}
	g, err := BuildGraph(rc.eps)
	if err != nil {
		return nil, err
	}
	rc.graph = g
	rc.unitsAt = startsBefore(rc.eps.List, len(c.Messages))
	rc.segToEp = segEpisodes(rc.segs, rc.eps.List)
	rc.immuneP = immunePrefix(p, rc.segs)
	rc.newPolicyState(nil)
	return rc, nil
}

// startsBefore counts, for each message m of n, the episodes of eps (in
// order of their start) that start before m.
func startsBefore(eps []Episode, n int) []int32 {
	out := make([]int32, n+1)
	u := 0
	for m := range out {
		for u < len(eps) && eps[u].Start < m {
			u++
		}
		out[m] = int32(u)
	}
	return out
}

func closeIndex(at int) int {
	if at < 0 {
		return math.MaxInt
	}
	return at
}

// sharedPrefix counts the leading messages two inputs share.
func sharedPrefix(a, b []*session.Message) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// Requests returns the number of requests.
func (r *Replayer) Requests() int { return len(r.reqs) }

// Diagnostics returns the protocol findings and episode problems found
// while preparing, located at file:line.
func (r *Replayer) Diagnostics() []session.Diagnostic { return r.diags }

// EpisodesOf returns the episodes of the context of request k.
func (r *Replayer) EpisodesOf(k int) *Episodes { return r.ctxs[r.reqCtx[k]].eps }

// GraphOf returns the episode graph of the context of request k.
func (r *Replayer) GraphOf(k int) *Graph { return r.ctxs[r.reqCtx[k]].graph }

// segEpisodes maps each pi-cwl unit to the episode of the same name that
// ends where it ends (-1 when the paper's episodes dropped it).
func segEpisodes(segs []Segment, eps []Episode) []int {
	out := make([]int, len(segs))
	j := 0
	for s := range segs {
		out[s] = -1
		for k := j; k < len(eps); k++ {
			if eps[k].Name == segs[s].Name && eps[k].End == segs[s].End {
				out[s], j = k, k+1
				break
			}
		}
	}
	return out
}

// immunePrefix sums, by prefix, the tokens of evictable messages outside
// every pi-cwl unit: the prologue and the gaps the reference never evicts.
func immunePrefix(p *Plan, segs []Segment) []int64 {
	in := make([]bool, len(p.Msgs))
	for _, s := range segs {
		for i := s.Start; i <= s.End && i < len(in); i++ {
			in[i] = true
		}
	}
	out := make([]int64, len(p.Msgs)+1)
	for i := range p.Msgs {
		out[i+1] = out[i]
		if !in[i] && !p.protected(i) {
			out[i+1] += int64(p.mTok[i])
		}
	}
	return out
}

// ContextEpisodes returns the episodes of every context, indexed as
// Point.Context.
func (r *Replayer) ContextEpisodes() []*Episodes {
	out := make([]*Episodes, len(r.ctxs))
	for i, c := range r.ctxs {
		out[i] = c.eps
	}
	return out
}

// HasEpisodes reports whether any context has a declared or inferred
// episode.
func (r *Replayer) HasEpisodes() bool {
	for _, e := range r.ContextEpisodes() {
		if e != nil && len(e.List) > 0 {
			return true
		}
	}
	return false
}
