package retrieve

import (
	"math"
	"strings"

	"ctxscope/engine/session"
)

// budgeted assembles a context of at most cfg.Budget tokens: passages in
// fused rank (boosted when a chosen triple links to them, or when their
// speaker is named in the question), each with its neighbouring turns
// when cfg.Neighbours, until the budget less cfg.FactTokens (or
// cfg.PassageShare of it, see passageLimit); then triples; then
// experience items; then more passages; each added only while the whole
// context still fits.
func (x *Index) budgeted(q *query, cfg Config, triples []Item) (*Result, error) {
	b := newAssembly(x, cfg)
	score := x.budgetScores(q, cfg, triples)
	order := top(all(len(x.Mem.Passages)), score, len(x.Mem.Passages))
	taken := map[int]bool{}
	add := func(i int, channel, via string) {
		if i < 0 || i >= len(x.Mem.Passages) || taken[i] {
			return
		}
		it := x.passageItem(q, i, channel, via)
		it.Why.Score = score[i]
		if b.compact {
			it.Text = x.compactLine(i, cfg.TimeHints)
		}
		if b.add(&b.passages, it) {
			taken[i] = true
		}
	}
	fill := func(limit int) {
		misses := 0
		if cfg.SessionPenalty > 0 {
			order = x.diversified(order, score, taken, cfg.SessionPenalty)
		}
		for _, i := range order {
			if b.tokens() >= limit || misses >= maxMisses {
				return
			}
			add(i, "global", "")
			if !taken[i] {
				misses++
				continue
			}
			misses = 0 // a passage already taken as a neighbour still brings its own
			if cfg.Neighbours && taken[i] {
				id := x.Mem.Passages[i].ID
				add(i+1, "neighbour", id)
				add(i-1, "neighbour", id)
			}
		}
	}
	fill(cfg.passageLimit())
	if cfg.PassageFacts > 0 {
		triples = append(x.passageFacts(q, order, taken, cfg.PassageFacts, cfg.Layout), triples...)
	}
	shown := map[string]bool{}
	for _, t := range triples {
		if !shown[t.ID] {
			shown[t.ID] = true
			if r, ok := x.relAt[t.ID]; ok {
				t.Text = x.factLine(r, cfg.Layout) // the graph channel's triples come in the reference's form
			}
			b.add(&b.triples, t)
		}
	}
	for _, e := range x.selectExperiences(q, cfg, triples, cfg.Experiences) {
		b.add(&b.exps, e)
	}
	fill(b.limit)
	return b.result(q.text), nil
}

// maxMisses ends a fill after this many passages in a row did not fit.
const maxMisses = 64

// passageLimit is the size in tokens passages fill before the facts and
// items get theirs: the budget less FactTokens when that is set, else
// the passages' share of it.
func (c Config) passageLimit() int {
	if c.FactTokens > 0 {
		return max(0, c.Budget-c.FactTokens)
	}
	return c.Budget * c.share() / 100
}

// share returns the passages' share of the budget in percent.
func (c Config) share() int {
	if c.PassageShare <= 0 || c.PassageShare > 1 {
		return 70
	}
	return int(c.PassageShare * 100)
}

// budgetScores ranks passages for the budgeted mode.
func (x *Index) budgetScores(q *query, cfg Config, triples []Item) []float64 {
	score := append([]float64(nil), q.pass.fused...)
	if cfg.GraphBoost > 0 {
		for _, t := range triples {
			for _, p := range t.Passages {
				if i, ok := x.passageAt[p]; ok {
					score[i] += cfg.GraphBoost * t.Why.Score
				}
			}
		}
	}
	if cfg.ExperienceBoost > 0 {
		for _, e := range x.selectExperiences(q, cfg, triples, cfg.Experiences) {
			for _, p := range e.Passages {
				if i, ok := x.passageAt[p]; ok {
					score[i] += cfg.ExperienceBoost * e.Why.Score
				}
			}
		}
	}
	if cfg.SpeakerBoost > 0 {
		named := map[string]bool{}
		lq := strings.ToLower(q.text)
		for _, s := range x.Mem.Speakers {
			if s != "" && strings.Contains(lq, strings.ToLower(s)) {
				named[s] = true
			}
		}
		if len(named) == 1 {
			for i, p := range x.Mem.Passages {
				if named[p.Speaker] {
					score[i] += cfg.SpeakerBoost
				}
			}
		}
	}
	return score
}

// assembly builds a context within a token budget, tracking its size
// in the counter's units line by line.
type assembly struct {
	x                       *Index
	limit, units            int
	passages, exps, triples []Item
	msg                     *session.Message
	// compact is the sessions layout; sessions holds the sessions whose
	// header is counted already.
	compact  bool
	sessions map[int]bool
}

// frame is the fixed text of an assembled context.
const frame = "=== TEXT EVIDENCE (PASSAGES & EXPERIENCES) ===\nPassages:\n\nExperiences:\n=== KNOWLEDGE GRAPH TRIPLES ===\n"

func newAssembly(x *Index, cfg Config) *assembly {
	a := &assembly{x: x, limit: cfg.Budget, msg: &session.Message{Role: session.RoleUser},
		compact: cfg.Layout == LayoutSessions, sessions: map[int]bool{}}
	if a.compact {
		a.units = a.size(sessionsFrame)
	} else {
		a.units = a.size(frame)
	}
	return a
}

func (a *assembly) size(text string) int {
	b := session.Block{Type: session.BlockText, Text: text}
	return a.x.counter.Units(a.msg, &b)
}

// tokens returns the context's current size in tokens.
func (a *assembly) tokens() int { return a.x.counter.Tokens(a.msg, a.units) }

// fits reports whether units fit the budget in tokens.
func (a *assembly) fits(units int) bool {
	return a.x.counter.Tokens(a.msg, units) <= a.limit
}

// add appends it to list when the context still fits.
func (a *assembly) add(list *[]Item, it Item) bool {
	line := it.Text + "\n"
	if list != &a.triples && !(a.compact && list == &a.passages) {
		line = "- " + line
	}
	n := a.size(line)
	session := -1
	if a.compact {
		switch {
		case list == &a.passages:
			i := a.x.passageAt[it.ID]
			if s := a.x.Mem.Passages[i].Session; !a.sessions[s] {
				session = s
				n += a.size(a.x.sessionHeader(i))
			}
		case list == &a.exps && len(a.exps) == 0:
			n += a.size("Experiences:\n")
		case list == &a.triples && len(a.triples) == 0:
			n += a.size("Facts:\n")
		}
	}
	if !a.fits(a.units + n) {
		return false
	}
	*list = append(*list, it)
	a.units += n
	if session >= 0 {
		a.sessions[session] = true
	}
	return true
}

// result renders the context; a counter whose units do not add up over
// lines (BPE) may overshoot by a token or two, so items are dropped from
// the end until the exact count fits.
func (a *assembly) result(question string) *Result {
	for {
		text := a.x.render(a.passages, a.exps, a.triples)
		if a.compact {
			text = a.x.renderSessions(a.passages, a.exps, a.triples)
		}
		n := a.x.Tokens(text)
		if n <= a.limit || len(a.passages)+len(a.exps)+len(a.triples) == 0 {
			items := append(append(append([]Item(nil), a.passages...), a.exps...), a.triples...)
			return &Result{Question: question, Items: items, Context: text, Tokens: n, Turns: turns(items)}
		}
		switch {
		case len(a.triples) > 0:
			a.triples = a.triples[:len(a.triples)-1]
		case len(a.exps) > 0:
			a.exps = a.exps[:len(a.exps)-1]
		default:
			a.passages = a.passages[:len(a.passages)-1]
		}
	}
}

// diversified reorders passages greedily: each next passage is the best
// by its score less penalty for every passage of its session ranked
// before it (the taken ones count as ranked first).
func (x *Index) diversified(order []int, score []float64, taken map[int]bool, penalty float64) []int {
	perSession := map[int]int{}
	for i := range taken {
		perSession[x.Mem.Passages[i].Session]++
	}
	rest := make([]int, 0, len(order))
	for _, i := range order {
		if !taken[i] {
			rest = append(rest, i)
		}
	}
	out := make([]int, 0, len(rest))
	for len(rest) > 0 && len(out) < diversifyDepth {
		best, bestScore := 0, math.Inf(-1)
		for k, i := range rest {
			s := score[i] - penalty*float64(perSession[x.Mem.Passages[i].Session])
			if s > bestScore {
				best, bestScore = k, s
			}
		}
		i := rest[best]
		out = append(out, i)
		perSession[x.Mem.Passages[i].Session]++
		rest = append(rest[:best], rest[best+1:]...)
	}
	return append(out, rest...)
}

// diversifyDepth bounds the greedy reordering: a context never holds more
// passages than this.
const diversifyDepth = 200
