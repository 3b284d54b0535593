package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// broker fans events out to every connected event stream.
type broker struct {
	mu     sync.Mutex
	subs   map[chan []byte]struct{}
	closed bool
}

func newBroker() *broker { return &broker{subs: map[chan []byte]struct{}{}} }

func (b *broker) publish(event string, data any) {
	payload, err := json.Marshal(map[string]any{"event": event, "data": data})
	if err != nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for c := range b.subs {
		select {
		case c <- payload:
		default: // a stalled client drops events rather than blocking the app
		}
	}
}

func (b *broker) subscribe() (chan []byte, func()) {
	c := make(chan []byte, 256)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		close(c)
		return c, func() {}
	}
	b.subs[c] = struct{}{}
	return c, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if _, ok := b.subs[c]; ok {
			delete(b.subs, c)
			close(c)
		}
	}
}

func (b *broker) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	for c := range b.subs {
		delete(b.subs, c)
		close(c)
	}
}

// handleEvents streams events as server-sent events until the client
// leaves, the server stops, or the token the stream was opened with is
// revoked (checked every s.recheck).
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	c, cancel := s.events.subscribe()
	defer cancel()
	fmt.Fprint(w, ": connected\n\n")
	flusher.Flush()
	keepalive := time.NewTicker(20 * time.Second)
	defer keepalive.Stop()
	recheck := time.NewTicker(s.recheck)
	defer recheck.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-recheck.C:
			if _, ok, err := s.principalOf(r); err == nil && !ok {
				return
			}
		case msg, ok := <-c:
			if !ok {
				return
			}
			fmt.Fprintf(w, "data: %s\n\n", msg)
			flusher.Flush()
		case <-keepalive.C:
			fmt.Fprint(w, ": keepalive\n\n")
			flusher.Flush()
		}
	}
}
