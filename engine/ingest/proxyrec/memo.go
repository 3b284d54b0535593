package proxyrec

import "ctxscope/engine/session"

// messageMemo keeps what the elements of the latest request's message
// array were read into, by their raw JSON, with each message's hash. Each
// request repeats the history the one before it sent, so with the memo a
// request costs the reading of what it adds, and a comparison of the
// rest: the live evictor reads every request before forwarding it.
//
// Only the messages of the latest request are kept, so the memo holds one
// body's worth of keys (substrings of that record's body). The messages
// it gives are shared between requests: whoever places one on the thread
// changes a copy of it.
type messageMemo struct {
	latest, next map[string]*session.Message
	// hashes are the hashes of the messages, of the latest request and
	// of the one being read.
	hashes, nextHashes map[*session.Message]string
	// readOnly is set on a fork: it reads the memo and adds nothing.
	readOnly bool
}

// begin starts reading a request: what it reads is kept for the next.
func (c *messageMemo) begin() {
	if c.readOnly {
		return
	}
	c.next, c.nextHashes = map[string]*session.Message{}, map[*session.Message]string{}
}

// end finishes reading a request: it is now the latest.
func (c *messageMemo) end() {
	if c.readOnly || c.next == nil {
		return
	}
	c.latest, c.hashes = c.next, c.nextHashes
	c.next, c.nextHashes = nil, nil
}

// message returns the message raw reads as (raw: the JSON of the elements
// it is made of): the memo's, or read's, which the memo then keeps. read
// reports false when raw is not what the API's message is; so does
// message then.
func (c *messageMemo) message(raw string, read func() (*session.Message, bool)) (*session.Message, bool) {
	m, ok := c.latest[raw]
	if !ok {
		if m, ok = read(); !ok {
			return nil, false
		}
	}
	if c.next != nil {
		c.next[raw] = m
	}
	return m, true
}

// hash returns the hash of m (hashOf), remembered for the next request
// when m is one of the memo's messages.
func (c *messageMemo) hash(m *session.Message) string {
	h, ok := c.hashes[m]
	if !ok {
		h, ok = c.nextHashes[m]
	}
	if !ok {
		h = hashOf(m)
	}
	if c.nextHashes != nil {
		c.nextHashes[m] = h
	}
	return h
}

// fork returns a memo that reads c and adds nothing to it.
func (c *messageMemo) fork() *messageMemo {
	return &messageMemo{latest: c.latest, hashes: c.hashes, readOnly: true}
}
