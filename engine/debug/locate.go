package debug

import (
	"sync"

	"ctxscope/engine/session"
)

// Location is where an entry of a thread first shows in the debugger: the
// first request whose input holds it, and its message index in that
// request's context; or, for a response no later request reads, the
// request it answered (Message -1).
type Location struct {
	Request int `json:"request"`
	Message int `json:"message"`
}

// Locator finds where a thread's entries show among its requests. It is
// safe for concurrent use.
type Locator struct {
	thread *session.Thread
	reqs   []*session.Request

	once sync.Once
	loc  map[*session.Entry]Location
}

// NewLocator returns a locator over t, whose requests are reqs
// ([session.BuildRequests] of t; nil builds them).
func NewLocator(t *session.Thread, reqs []*session.Request) *Locator {
	if reqs == nil {
		reqs = session.BuildRequests(t)
	}
	return &Locator{thread: t, reqs: reqs}
}

// Locate returns where entry number ord of the thread (its position in
// Thread.Entries, as search hits name it) shows, and false when no request
// involves it (bookkeeping entries, a thread without requests).
func (r *Locator) Locate(ord int) (Location, bool) {
	if ord < 0 || ord >= len(r.thread.Entries) {
		return Location{}, false
	}
	r.once.Do(r.indexLocations)
	e := r.thread.Entries[ord]
	if l, ok := r.loc[e]; ok {
		return l, true
	}
	// Entries that no input holds: find the request that follows them.
	for k, q := range r.reqs {
		if q.Entry.Line >= e.Line {
			return Location{Request: k, Message: -1}, true
		}
	}
	return Location{}, false
}

// indexLocations records the first request whose input holds each entry,
// walking every context once.
func (r *Locator) indexLocations() {
	r.loc = map[*session.Entry]Location{}
	done := map[*session.Context]int{}
	for k, q := range r.reqs {
		from := done[q.Context]
		for i := from; i < q.Len; i++ {
			if e := q.Context.Entries[i]; e != nil {
				if _, ok := r.loc[e]; !ok {
					r.loc[e] = Location{Request: k, Message: i}
				}
			}
		}
		if q.Len > from {
			done[q.Context] = q.Len
		}
	}
	for k, q := range r.reqs {
		if _, ok := r.loc[q.Entry]; !ok {
			r.loc[q.Entry] = Location{Request: k, Message: -1}
		}
	}
}
