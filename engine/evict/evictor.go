package evict

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"ctxscope/engine/debug"
	"ctxscope/engine/ingest/proxyrec"
	"ctxscope/engine/proxy"
)

// Evictor rewrites the requests of the conversations it sees. It is safe
// for concurrent use.
type Evictor struct {
	params debug.Params

	mu    sync.Mutex
	convs map[string]*conversation
}

// conversation is what the evictor knows of one conversation: its
// finished exchanges, each decoded once.
type conversation struct {
	mu sync.Mutex
	c  *proxyrec.Conversation
}

// conversation returns the state of conversation conv, made on first use.
func (e *Evictor) conversation(conv string) *conversation {
	e.mu.Lock()
	defer e.mu.Unlock()
	c := e.convs[conv]
	if c == nil {
		c = &conversation{c: proxyrec.NewConversation(conv + ".jsonl")}
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
	return &Evictor{params: debug.Params{Policy: policy, Budget: budget, Counter: counter, Episodes: "inferred"}, convs: map[string]*conversation{}}, nil
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
	switch api {
	case proxy.APIChat, proxy.APIAnthropic, proxy.APIResponses, proxy.APIGemini:
	default:
		return nil, "not rewritten: not a request of a known API"
	}
	if !json.Valid(body) {
		return nil, "not rewritten: the body is not JSON"
	}
	d, err := e.decisions(api, conv, body)
	if err != nil {
		return nil, "not rewritten: " + err.Error()
	}
	if d == nil {
		return nil, "" // the first request of a conversation goes as sent
	}
	if d.before <= e.params.Budget || len(d.evicted) == 0 {
		return nil, "" // under τ, or nothing the policy may evict: as sent
	}
	var out []byte
	switch api {
	case proxy.APIChat:
		out, err = rewriteChat(body, d)
	case proxy.APIAnthropic:
		out, err = rewriteAnthropic(body, d)
	case proxy.APIResponses:
		out, err = rewriteResponses(body, d)
	case proxy.APIGemini:
		out, err = rewriteGemini(body, d)
	}
	if err != nil {
		return nil, "not rewritten: " + err.Error()
	}
	note := fmt.Sprintf("evicted %d blocks at τ %d: %d tokens before, %d after", len(d.evicted), e.params.Budget, d.before, d.after)
	if d.after > e.params.Budget {
		note += fmt.Sprintf("; unreachable: %d tokens over τ that the policy may not evict (user turns, the open episode, what a live action depends on)", d.after-e.params.Budget)
	}
	return out, note
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
}

// decisions replays the conversation with the pending request as its last
// and returns the decisions at that request; nil for the first request of
// a conversation.
func (e *Evictor) decisions(api proxy.API, conv string, body []byte) (*decisions, error) {
	pending := &proxy.Record{Version: proxy.RecordVersion, Conversation: conv, API: api, Method: "POST", Status: 200,
		Request: proxy.Body{Text: string(body), Bytes: int64(len(body))}}
	st := e.conversation(conv)
	st.mu.Lock()
	if st.c.Records() == 0 {
		st.mu.Unlock()
		return nil, nil
	}
	s := st.c.With(pending)
	st.mu.Unlock()
	r, err := debug.New(context.Background(), s, e.params, nil)
	if err != nil {
		return nil, err
	}
	tl, err := r.Timeline(e.params)
	if err != nil {
		return nil, err
	}
	k := len(tl.After) - 1
	if k < 0 {
		return nil, fmt.Errorf("no request to decide on")
	}
	c, err := r.Context(e.params, k, 0)
	if err != nil {
		return nil, err
	}
	d := &decisions{evicted: map[[2]int]decision{}, before: c.Before, after: c.Tokens, messages: len(c.Items)}
	for _, it := range c.Items {
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

// at returns the decision for block b of input message i: its own, or its
// message's.
func (d *decisions) at(i, b int) (decision, bool) {
	if x, ok := d.evicted[[2]int{i, b}]; ok {
		return x, true
	}
	x, ok := d.evicted[[2]int{i, -1}]
	return x, ok
}
