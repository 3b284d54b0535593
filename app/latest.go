package app

import (
	"context"
	"errors"
	"sync"
)

// ErrSuperseded ends the work of a call that a newer call of the same
// method, from the same caller, has replaced: when τ is dragged, only the
// replay of the last position matters.
var ErrSuperseded = errors.New("superseded by a newer call")

// callerKey is the context key of the caller's identity.
type callerKey struct{}

// WithCaller returns ctx naming the caller of a bound method (a browser
// tab in serve mode). Calls from one caller supersede each other; calls
// from different callers do not. The desktop window is one caller.
func WithCaller(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, callerKey{}, id)
}

func callerOf(ctx context.Context) string {
	id, _ := ctx.Value(callerKey{}).(string)
	return id
}

// latestCalls hands out the contexts of calls of which only the newest
// matters: beginning a call cancels, with ErrSuperseded, the call of the
// same method from the same caller that is still running.
type latestCalls struct {
	mu      sync.Mutex
	running map[string]*latestCall
}

type latestCall struct{ cancel context.CancelCauseFunc }

// begin returns the context for a new call of method under parent, and
// the function that ends it. It supersedes the caller's previous call of
// the method.
func (l *latestCalls) begin(parent context.Context, method string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	key := callerOf(parent) + "\x00" + method
	c := &latestCall{cancel: cancel}
	l.mu.Lock()
	if l.running == nil {
		l.running = map[string]*latestCall{}
	}
	if prev := l.running[key]; prev != nil {
		prev.cancel(ErrSuperseded)
	}
	l.running[key] = c
	l.mu.Unlock()
	return ctx, func() {
		l.mu.Lock()
		if l.running[key] == c {
			delete(l.running, key)
		}
		l.mu.Unlock()
		cancel(nil)
	}
}
