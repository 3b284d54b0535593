package app

import (
	"sync"
	"time"

	"ctxscope/engine/store"
)

// noticeEvery is how often, at most, the frontend is told of the sessions
// the OTLP receiver changed.
const noticeEvery = 250 * time.Millisecond

// notices gathers the sessions that imports changed and tells the
// frontend of them at most once per interval: telling reads each
// session's stats, which costs the session's size, so telling at every
// export would make each export cost its whole conversation.
type notices struct {
	every time.Duration
	tell  func([]store.SessionChange)

	mu      sync.Mutex
	pending map[string]store.SessionChange
	order   []string
	timer   *time.Timer // nil when nothing waits
	closed  bool
	telling sync.WaitGroup
}

func newNotices(every time.Duration, tell func([]store.SessionChange)) *notices {
	return &notices{every: every, tell: tell, pending: map[string]store.SessionChange{}}
}

// add gathers changes; a session new since the last telling stays new.
func (n *notices) add(changes []store.SessionChange) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, c := range changes {
		if c.Action == store.ActionUnchanged || c.Action == store.ActionDuplicate {
			continue
		}
		prev, ok := n.pending[c.Key]
		if !ok {
			n.order = append(n.order, c.Key)
		} else if prev.Action == store.ActionImported {
			c.Action = store.ActionImported
		}
		n.pending[c.Key] = c
	}
	if len(n.pending) > 0 && n.timer == nil && !n.closed {
		n.timer = time.AfterFunc(n.every, n.flush)
	}
}

// flush tells what was gathered.
func (n *notices) flush() {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return
	}
	out := make([]store.SessionChange, 0, len(n.order))
	for _, k := range n.order {
		out = append(out, n.pending[k])
	}
	clear(n.pending)
	n.order, n.timer = n.order[:0], nil
	n.telling.Add(1)
	n.mu.Unlock()
	defer n.telling.Done()
	n.tell(out)
}

// close drops what waits and waits for a telling under way; nothing is
// told after it.
func (n *notices) close() {
	n.mu.Lock()
	n.closed = true
	if n.timer != nil {
		n.timer.Stop()
	}
	n.mu.Unlock()
	n.telling.Wait()
}
