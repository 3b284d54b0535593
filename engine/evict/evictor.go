package evict

import (
	"context"
	"fmt"
	"sync"
	"unsafe"

	"github.com/valyala/fastjson"

	"ctxscope/engine/debug"
	"ctxscope/engine/ingest/proxyrec"
	"ctxscope/engine/proxy"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// Evictor rewrites the requests of the conversations it sees. It is safe
// for concurrent use.
type Evictor struct {
	params debug.Params
	// counter measures the messages (the ledger's counter of
	// params.Counter).
	counter tokens.Counter
	// step is the hysteresis: when a request goes over τ, eviction goes
	// down to τ - step, and the next requests keep those evictions as
	// long as they stay under τ (0: every request evicts to τ).
	step int

	mu     sync.Mutex
	convs  map[string]*conversation
	paused map[string]bool // conversations whose requests go as sent
}

// conversation is what the evictor knows of one conversation: its
// finished exchanges, each decoded once.
type conversation struct {
	mu sync.Mutex
	c  *proxyrec.Conversation
	// held are the evictions the hysteresis keeps, and decided the
	// request they were decided at (1-based).
	held    *decisions
	decided int
	// ledger keeps the measurements of the conversation's messages
	// between requests: each is measured once.
	ledger *tokens.Ledger
	// members keeps where the members of the messages rewritten stand.
	members memberMemo
}

// conversation returns the state of conversation conv, made on first use.
func (e *Evictor) conversation(conv string) *conversation {
	e.mu.Lock()
	defer e.mu.Unlock()
	c := e.convs[conv]
	if c == nil {
		c = &conversation{c: proxyrec.NewConversation(conv + ".jsonl"), ledger: tokens.NewLedger(e.counter)}
		e.convs[conv] = c
	}
	return c
}

// New returns an evictor that applies policy ("paper" or "pi-cwl") at
// budget τ, counting tokens with counter ("" for the estimator), with
// episodes inferred where the agent declares none.
func New(policy string, budget int, counter string) (*Evictor, error) {
	if policy != "paper" && policy != "pi-cwl" {
		return nil, fmt.Errorf("evict: policy %q: want paper or pi-cwl", policy)
	}
	if budget <= 0 {
		return nil, fmt.Errorf("evict: the budget must be positive")
	}
	c, err := tokens.ByName(debug.LedgerCounter(counter))
	if err != nil {
		return nil, fmt.Errorf("evict: %v", err)
	}
	return &Evictor{params: debug.Params{Policy: policy, Budget: budget, Counter: counter, Episodes: "inferred"}, counter: c,
		convs: map[string]*conversation{}, paused: map[string]bool{}}, nil
}

// SetStep sets the hysteresis, in tokens: a request over τ is evicted
// down to τ - step, and later requests keep those evictions, and so the
// prompt's prefix the provider caches, until they go over τ again. 0, the
// default, evicts every request to τ. Set it before the first request.
func (e *Evictor) SetStep(step int) error {
	if step < 0 || step >= e.params.Budget {
		return fmt.Errorf("evict: the step must be between 0 and τ (%d)", e.params.Budget)
	}
	e.step = step
	return nil
}

// SetPaused turns eviction off (paused) or on again for conversation
// conv: the kill switch of one agent's session. While paused, its
// requests go as sent, each with a note saying so; its exchanges are
// still remembered, so that eviction resumes where the replay is.
func (e *Evictor) SetPaused(conv string, paused bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if paused {
		e.paused[conv] = true
	} else {
		delete(e.paused, conv)
	}
}

func (e *Evictor) isPaused(conv string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.paused[conv]
}

// Record remembers a finished exchange of a conversation: a later
// request's decisions are those of a replay over them. It is a
// [proxy.Sink].
func (e *Evictor) Record(r *proxy.Record) error {
	c := e.conversation(r.Conversation)
	c.mu.Lock()
	c.c.Add(r)
	c.mu.Unlock()
	return nil
}

// Rewrite returns the body to forward for a request of api in
// conversation conv, and a note saying what was done; it returns nil
// when the body goes as sent.
func (e *Evictor) Rewrite(api proxy.API, conv string, body []byte) ([]byte, string) {
	if rewriters[api] == nil {
		return nil, "not rewritten: not a request of a known API"
	}
	if e.isPaused(conv) {
		return nil, "not rewritten: eviction is turned off for this conversation"
	}
	if fastjson.ValidateBytes(body) != nil {
		return nil, "not rewritten: the body is not JSON"
	}
	st := e.conversation(conv)
	s, layout, n, base := st.pending(api, conv, body)
	if s == nil {
		return nil, "" // the first request of a conversation goes as sent
	}
	defer st.forget(s, base)
	d, err := e.decide(st, s, e.params.Budget)
	if err != nil {
		return nil, "not rewritten: " + err.Error()
	}
	var kept string
	if e.step > 0 {
		d, kept, err = e.hysteresis(st, s, d, n)
		if err != nil {
			return nil, "not rewritten: " + err.Error()
		}
	}
	if d.before <= e.params.Budget && kept == "" || len(d.evicted) == 0 {
		if d.before > e.params.Budget { // over τ, and nothing the policy may evict
			return nil, fmt.Sprintf("as sent at τ %d: %d tokens before, %d after; %s", e.params.Budget, d.before, d.before, unreachable(d.before-e.params.Budget))
		}
		return nil, "" // under τ: as sent
	}
	reads := st.members.reads()
	out, err := apply(api, body, layout, d, reads)
	reads.done()
	if err != nil {
		return nil, "not rewritten: " + err.Error()
	}
	note := fmt.Sprintf("evicted %d blocks at τ %d: %d tokens before, %d after", len(d.evicted), e.params.Budget, d.before, d.after)
	if kept != "" {
		note += "; " + kept
	}
	if d.after > e.params.Budget {
		note += "; " + unreachable(d.after-e.params.Budget)
	}
	return out, note
}

// unreachable says why an input stays over τ by over tokens.
func unreachable(over int) string {
	return fmt.Sprintf("unreachable: %d tokens over τ that the policy may not evict (user turns, the open episode, what a live action depends on)", over)
}

// apply rewrites body, a request of api (one of rewriters') whose
// messages stand where layout says, with the decisions d, reading the members of its messages by
// reads.
func apply(api proxy.API, body []byte, layout *proxyrec.Layout, d *decisions, reads *memberReads) ([]byte, error) {
	arr, err := messagesOf(body, layout, reads)
	if err != nil {
		return nil, err
	}
	return rewriters[api](arr, d)
}

// rewriters apply decisions to a request of each API.
var rewriters = map[proxy.API]func(*array, *decisions) ([]byte, error){
	proxy.APIChat: rewriteChat, proxy.APIAnthropic: rewriteAnthropic, proxy.APIResponses: rewriteResponses, proxy.APIGemini: rewriteGemini,
}

// hysteresis turns d, the decisions at τ for request n of st (whose
// session with the request last is s), into those the hysteresis makes:
// the evictions held since an earlier request when, with them, the input
// is at or under τ and the messages they name are the same; else, when
// the input is over τ, those at τ - step, which are held from then on.
// kept says when the held evictions were kept, and from which request.
func (e *Evictor) hysteresis(st *conversation, s *session.Session, d *decisions, n int) (*decisions, string, error) {
	st.mu.Lock()
	held, decided := st.held, st.decided
	st.mu.Unlock()
	if held != nil && held.samePrefix(d) {
		size := d.before
		for _, x := range held.evicted {
			size -= x.tokens
		}
		if size <= e.params.Budget {
			kept := *held
			kept.touched = nil
			kept.messages, kept.hasSystem, kept.before, kept.after, kept.lines = d.messages, d.hasSystem, d.before, size, d.lines
			return &kept, fmt.Sprintf("hysteresis: the evictions of request %d kept", decided), nil
		}
	}
	if d.before <= e.params.Budget {
		return d, "", nil
	}
	low, err := e.decide(st, s, e.params.Budget-e.step)
	if err != nil {
		return nil, "", err
	}
	st.mu.Lock()
	st.held, st.decided = low, n
	st.mu.Unlock()
	return low, fmt.Sprintf("hysteresis: evicted to τ - %d", e.step), nil
}

// decision is what to do to one block of the request's input: the level
// that evicted it and its size.
type decision struct {
	level, tokens int
}

// decisions are the evictions at a request: by input message and block
// (block -1 for a whole message), with the input's size before and after.
type decisions struct {
	hasSystem     bool
	messages      int
	evicted       map[[2]int]decision
	before, after int
	// lines are the record lines the input's messages were first sent
	// in: two requests whose first messages have the same lines share
	// those messages (proxyrec shares what a later request repeats).
	lines []int
	// touched are the input messages evicted from, made on first use.
	touched map[int]bool
}

// samePrefix reports whether the messages the decisions in h name are
// those of d's input too: the agent has not rewritten that part of its
// history since.
func (h *decisions) samePrefix(d *decisions) bool {
	last := -1
	for k := range h.evicted {
		last = max(last, k[0])
	}
	if last >= len(h.lines) || last >= len(d.lines) {
		return false
	}
	for i := 0; i <= last; i++ {
		if h.lines[i] != d.lines[i] {
			return false
		}
	}
	return true
}

// pending returns the session of the conversation with the pending
// request last, where the request's messages stand in its body, the
// request's number (1-based), and how many of the session's entries are
// the conversation's (those after are the request's); a nil session for
// the first request of a conversation.
func (st *conversation) pending(api proxy.API, conv string, body []byte) (*session.Session, *proxyrec.Layout, int, int) {
	// The record lives as long as the call and only reads body: its text
	// is body's bytes, not a copy of them.
	rec := &proxy.Record{Version: proxy.RecordVersion, Conversation: conv, API: api, Method: "POST", Status: 200,
		Request: proxy.Body{Text: unsafe.String(unsafe.SliceData(body), len(body)), Bytes: int64(len(body))}}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.c.Records() == 0 {
		return nil, nil, 1, 0
	}
	s, layout := st.c.With(rec)
	return s, layout, st.c.Records() + 1, st.c.Entries()
}

// forget drops from the ledger the measurements of the entries of s, a
// session pending returned, after the first base: the pending request's,
// which the conversation does not keep (its record, once answered, is
// read anew).
func (st *conversation) forget(s *session.Session, base int) {
	var msgs []*session.Message
	for _, e := range s.Main().Entries[base:] {
		msgs = append(msgs, e.Message)
	}
	st.ledger.Forget(msgs)
}

// decide replays s, a session of the conversation st, at budget and
// returns the decisions at its last request.
func (e *Evictor) decide(st *conversation, s *session.Session, budget int) (*decisions, error) {
	p := e.params
	p.Budget = budget
	r, err := debug.New(context.Background(), s, p, st.ledger)
	if err != nil {
		return nil, err
	}
	tl, err := r.Timeline(p)
	if err != nil {
		return nil, err
	}
	k := len(tl.After) - 1
	if k < 0 {
		return nil, fmt.Errorf("no request to decide on")
	}
	c, err := r.Context(p, k, 0)
	if err != nil {
		return nil, err
	}
	d := &decisions{evicted: map[[2]int]decision{}, before: c.Before, after: c.Tokens, messages: len(c.Items)}
	for _, it := range c.Items {
		d.lines = append(d.lines, it.Line)
		if it.I == 0 && it.Role == "system" {
			d.hasSystem = true
		}
		if it.State == debug.StateEvicted && it.Removal != nil {
			d.evicted[[2]int{it.I, -1}] = decision{level: it.Removal.Level, tokens: it.Tokens}
			continue
		}
		for b, bl := range it.Blocks {
			if bl.State == debug.StateEvicted && bl.Removal != nil {
				d.evicted[[2]int{it.I, b}] = decision{level: bl.Removal.Level, tokens: bl.Tokens}
			}
		}
	}
	return d, nil
}

// touches reports whether the decisions evict anything of input message
// i.
func (d *decisions) touches(i int) bool {
	if d.touched == nil {
		d.touched = map[int]bool{}
		for k := range d.evicted {
			d.touched[k[0]] = true
		}
	}
	return d.touched[i]
}

// at returns the decision for block b of input message i: its own, or its
// message's.
func (d *decisions) at(i, b int) (decision, bool) {
	if x, ok := d.evicted[[2]int{i, b}]; ok {
		return x, true
	}
	x, ok := d.evicted[[2]int{i, -1}]
	return x, ok
}
