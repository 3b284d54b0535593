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

// Entries returns how many entries the conversation's thread has: those
// of a session [Conversation.With] returns beyond them are its request's.
func (c *Conversation) Entries() int { return len(c.d.t.Entries) }

// Records returns how many records were added.
func (c *Conversation) Records() int { return c.n }

// With returns the session of the conversation with rec, a request not
// yet answered, as its last exchange, and where rec's messages stand in
// its body (nil when they could not be read). The conversation is not
// changed: rec is decoded on a fork that shares the entries decoded so
// far, which the fork only reads.
func (c *Conversation) With(rec *proxy.Record) (*session.Session, *Layout) {
	f := c.d.fork()
	layout := f.record(rec, c.n+1)
	return f.Finish(), layout
}

// fork returns a decoder that starts where d is and leaves d as it is:
// the session and thread are copied, and every slice the fork appends to
// is cut to its length, so that its appends never write into d's arrays;
// it reads d's memo and adds nothing to it.
func (d *decoder) fork() *decoder {
	s, t := *d.s, *d.t
	t.Entries = t.Entries[:len(t.Entries):len(t.Entries)]
	s.Diagnostics = s.Diagnostics[:len(s.Diagnostics):len(s.Diagnostics)]
	s.Threads = []*session.Thread{&t}
	f := *d
	f.s, f.t, f.out, f.memo = &s, &t, nil, d.memo.fork()
	f.path = d.path[:len(d.path):len(d.path)]
	return &f
}
