package tokens

import (
	"context"
	"sync"

	"ctxscope/engine/session"
)

// Breakdown holds token counts by [Category]. Values are fractional so that
// a message's parts add up exactly to its whole.
type Breakdown [NumCategories]float64

// Add adds o to b.
func (b *Breakdown) Add(o Breakdown) {
	for i := range b {
		b[i] += o[i]
	}
}

// Total returns the sum over all categories.
func (b Breakdown) Total() float64 {
	t := 0.0
	for _, v := range b {
		t += v
	}
	return t
}

// Ledger caches a counter's measurements of messages. Each block is
// tokenized at most once per ledger; every later count, whole or partial,
// is arithmetic. A Ledger is safe for concurrent use.
type Ledger struct {
	counter Counter
	mu      sync.RWMutex
	units   map[*session.Message][]int
}

// NewLedger returns an empty ledger for c.
func NewLedger(c Counter) *Ledger {
	return &Ledger{counter: c, units: make(map[*session.Message][]int)}
}

// Counter returns the ledger's counter.
func (l *Ledger) Counter() Counter { return l.counter }

// Units returns the cached per-block units of m, measuring m on first use.
// The returned slice must not be modified.
func (l *Ledger) Units(m *session.Message) []int {
	l.mu.RLock()
	u, ok := l.units[m]
	l.mu.RUnlock()
	if ok {
		return u
	}
	u = make([]int, len(m.Blocks))
	for i := range m.Blocks {
		u[i] = l.counter.Units(m, &m.Blocks[i])
	}
	l.mu.Lock()
	l.units[m] = u
	l.mu.Unlock()
	return u
}

// Prefetch measures every message of msgs not measured yet, so that later
// counts are arithmetic. It checks ctx between messages and returns ctx's
// cause when ctx ends: the one part of preparing a replay whose time grows
// with the text, and so the part a superseded or abandoned call must be
// able to stop.
func (l *Ledger) Prefetch(ctx context.Context, msgs []*session.Message) error {
	for _, m := range msgs {
		if err := ctx.Err(); err != nil {
			return context.Cause(ctx)
		}
		l.Units(m)
	}
	return nil
}

// Forget drops the measurements of msgs, messages no one will count
// again: a ledger kept across replays of a growing session forgets the
// messages of a session it prepared once.
func (l *Ledger) Forget(msgs []*session.Message) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range msgs {
		delete(l.units, m)
	}
}

// Message returns the tokens of m with all its blocks. A message with no
// blocks counts 0.
func (l *Ledger) Message(m *session.Message) int {
	if len(m.Blocks) == 0 {
		return 0
	}
	sum := 0
	for _, u := range l.Units(m) {
		sum += u
	}
	return l.counter.Tokens(m, sum)
}

// Kept returns the tokens of m when only the blocks for which keep returns
// true remain. It returns 0 when no block remains.
func (l *Ledger) Kept(m *session.Message, keep func(block int) bool) int {
	sum, kept := 0, 0
	for i, u := range l.Units(m) {
		if keep(i) {
			sum += u
			kept++
		}
	}
	if kept == 0 {
		return 0
	}
	return l.counter.Tokens(m, sum)
}

// Breakdown splits the tokens of m by category. The message's overhead
// beyond its blocks (the estimator's rounding, BPE framing) is charged to
// the category of its role, so the parts add up to [Ledger.Message].
func (l *Ledger) Breakdown(m *session.Message) Breakdown {
	var b Breakdown
	if len(m.Blocks) == 0 {
		return b
	}
	units := l.Units(m)
	sum := 0
	for i, u := range units {
		b[CategoryOf(m, &m.Blocks[i])] += l.counter.Weight(u)
		sum += u
	}
	b[roleCategory(m)] += float64(l.counter.Tokens(m, sum)) - l.counter.Weight(sum)
	return b
}

// Total returns the summed tokens of msgs.
func (l *Ledger) Total(msgs []*session.Message) int {
	t := 0
	for _, m := range msgs {
		t += l.Message(m)
	}
	return t
}
