package cwl

import (
	"sort"

	"ctxscope/engine/tokens"
)

// CompactOptions configures the compact baseline: summary compaction as
// agents without CWL do it (pi, Claude Code, Codex).
type CompactOptions struct {
	// Window and Fraction set the trigger at Fraction × Window tokens;
	// with Fraction 0 the trigger is the replay's budget, so that sweeps
	// compare like with like.
	Window   int     `json:"window"`
	Fraction float64 `json:"fraction"`
	// SummaryTokens is the size of the summary that replaces the
	// compacted history (default 2,000).
	SummaryTokens int `json:"summaryTokens"`
	// KeepRecent is how many tokens of the most recent messages survive a
	// compaction verbatim (default a fifth of the trigger).
	KeepRecent int `json:"keepRecent"`
}

func (c CompactOptions) withDefaults(budget int) CompactOptions {
	if c.SummaryTokens <= 0 {
		c.SummaryTokens = 2000
	}
	if c.Window <= 0 {
		c.Window = 200_000
	}
	if c.KeepRecent <= 0 {
		c.KeepRecent = c.trigger(budget) / 5
	}
	return c
}

func (c CompactOptions) trigger(budget int) int {
	if c.Fraction > 0 {
		return int(c.Fraction * float64(c.Window))
	}
	return budget
}

// stepTruncate keeps the most recent content that fits: it drops the
// oldest messages other than user turns and system prompts (tool results
// go with their calls), recomputed for every request.
func (r *Replayer) stepTruncate(k int, c *replayCtx, pt *Point, o RunOptions) {
	p, n := c.plan, pt.Messages
	fits := func(cut int) bool { return int(p.protP[cut]+p.prefix[n]-p.prefix[cut]) <= o.Budget }
	cut := 0
	if !fits(0) {
		cut = sort.Search(n+1, fits)
		for cut < n && p.mKind[cut] == msgTool {
			cut++
		}
	}
	pt.After = int(p.protP[cut] + p.prefix[n] - p.prefix[cut])
	var cats [numCats]float64
	for i := range numCats {
		cats[i] = p.pBrk[n*numCats+i] - p.pBrk[cut*numCats+i] + p.pProt[cut*numCats+i]
	}
	pt.Cats = roundCats(cats)
	prev := c.cut
	if c.lastN > n {
		prev = 0
	}
	if cut > prev {
		pt.Evictions = append(pt.Evictions, Eviction{Episode: -1, Level: LevelFull, Step: PolicyTruncate, Freed: pt.Before - pt.After})
	}
	if pt.After > o.Budget {
		pt.Unreachable = &Unreachable{Over: pt.After - o.Budget, Protected: int(p.protP[n]), Blockers: []Blocker{{Kind: BlockProtected, Episode: -1}}}
	}
	m := int(r.shared[k])
	if cut != prev {
		m = min(m, prev, cut)
	}
	pt.Cached = int(p.protP[min(m, cut)])
	if m > cut {
		pt.Cached = int(p.protP[cut] + p.prefix[m] - p.prefix[cut])
	}
	pt.LookBack = r.lookBackBefore(k, c, cut)
	c.cut, c.lastN = cut, n
}

// stepCompact replaces the history with a summary whenever the input
// passes the trigger, keeping system prompts and the most recent tokens.
// The summarization call is a request of its own: its input is the
// context it summarizes and its output the summary.
func (r *Replayer) stepCompact(k int, c *replayCtx, pt *Point, o RunOptions) {
	p, n := c.plan, pt.Messages
	if c.lastN > n {
		c.compactAt, c.summaries = 0, 0
	}
	sum := o.Compact.SummaryTokens
	view := func(cp int) int {
		if cp == 0 {
			return int(p.prefix[n])
		}
		return int(p.sysP[cp]) + sum + int(p.prefix[n]-p.prefix[cp])
	}
	cached := 0
	if k > 0 && r.reqCtx[k-1] == r.reqCtx[k] && int(r.shared[k]) == c.lastN {
		cached = c.lastAfter // the previous input is a prefix of this one
	}
	before := view(c.compactAt)
	if trig := o.Compact.trigger(o.Budget); before > trig && n > c.compactAt {
		cp := c.recentCut(n, o.Compact.KeepRecent)
		pt.Summary = &SummaryCall{Input: before, Cached: cached, Output: sum}
		c.compactAt = cp
		c.summaries++
		cached = int(p.sysP[cp])
		pt.Evictions = append(pt.Evictions, Eviction{Episode: -1, Level: LevelFull, Step: PolicyCompact, Freed: before - view(cp)})
	}
	pt.After = view(c.compactAt)
	pt.Cached = cached
	var cats [numCats]float64
	cp := c.compactAt
	for i := range numCats {
		cats[i] = p.pBrk[n*numCats+i] - p.pBrk[cp*numCats+i]
	}
	if cp > 0 {
		cats[tokens.CatSummary] += float64(sum)
		cats[tokens.CatSystem] += float64(p.sysP[cp])
	}
	pt.Cats = roundCats(cats)
	if pt.After > o.Budget {
		pt.Unreachable = &Unreachable{Over: pt.After - o.Budget, Protected: pt.After, Blockers: []Blocker{{Kind: BlockProtected, Episode: -1}}}
	}
	pt.LookBack = r.lookBackBefore(k, c, cp)
	c.lastN, c.lastAfter = n, pt.After
}

// recentCut returns where a compaction at n cuts: the earliest message
// boundary after which at most keep tokens remain, never splitting a call
// from its results and always past the previous cut.
func (c *replayCtx) recentCut(n, keep int) int {
	p := c.plan
	cp := sort.Search(n+1, func(i int) bool { return int(p.prefix[n]-p.prefix[i]) <= keep })
	for cp < n && p.mKind[cp] == msgTool {
		cp++
	}
	if cp <= c.compactAt {
		cp = n
	}
	return cp
}

// lookBackBefore counts the calls of request k made again whose earlier call lies
// before message cut (truncated or compacted away).
func (r *Replayer) lookBackBefore(k int, c *replayCtx, cut int) int {
	n := 0
	for _, b := range r.looks[k] {
		if int(c.plan.bMsg[b]) < cut {
			n++
		}
	}
	return n
}
