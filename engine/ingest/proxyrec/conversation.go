package proxyrec

import (
	"ctxscope/engine/proxy"
	"ctxscope/engine/session"
)

// Conversation is one conversation's session, grown one proxy record at
// a time as its exchanges finish: each record is decoded once. The live
// evictor keeps one per conversation and asks, for each pending request,
// what the session would be with that request last ([Conversation.With]),
// without the request becoming part of it. It is not safe for concurrent
// use.
type Conversation struct {
	d *decoder
	n int // records added
}

// NewConversation returns an empty conversation; name is used in
// diagnostics.
func NewConversation(name string) *Conversation {
	return &Conversation{d: newDecoder(name)}
}

// Add decodes a finished exchange into the conversation.
func (c *Conversation) Add(rec *proxy.Record) {
	c.n++
	c.d.record(rec, c.n)
	c.d.out = nil
}

// Session returns the conversation's session so far.
func (c *Conversation) Session() *session.Session { return c.d.Finish() }

// Records returns how many records were added.
func (c *Conversation) Records() int { return c.n }

// With returns the session of the conversation with rec, a request not
// yet answered, as its last exchange. The conversation is not changed:
// rec is decoded on a fork that shares the entries decoded so far, which
// the fork only reads.
func (c *Conversation) With(rec *proxy.Record) *session.Session {
	f := c.d.fork()
	f.record(rec, c.n+1)
	return f.Finish()
}

// fork returns a decoder that starts where d is and leaves d as it is:
// the session and thread are copied, and every slice the fork appends to
// is cut to its length, so that its appends never write into d's arrays.
func (d *decoder) fork() *decoder {
	s, t := *d.s, *d.t
	t.Entries = t.Entries[:len(t.Entries):len(t.Entries)]
	s.Diagnostics = s.Diagnostics[:len(s.Diagnostics):len(s.Diagnostics)]
	s.Threads = []*session.Thread{&t}
	f := *d
	f.s, f.t, f.out = &s, &t, nil
	f.path = d.path[:len(d.path):len(d.path)]
	return &f
}
