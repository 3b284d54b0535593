package search

import (
	"context"
	"sync/atomic"
	"time"
)

// A background sync gives way to the user. Indexing a long session takes
// both cores for many seconds (a 64 MB session, about a minute), and an
// app starts it right after the import that shows the session: the user
// is then stepping through it and dragging τ, and those replies should
// not share the machine with the indexer. So a sync that an app runs in
// the background ([InBackground]) waits, between batches, while the
// user is at work (as the function given to [Index.YieldTo] says),
// unless a search is waiting for the index, which then needs it done.

// yieldPoll is how often a waiting background sync looks again.
const yieldPoll = 20 * time.Millisecond

type backgroundKey struct{}

// InBackground marks ctx as a background sync's: [Index.Sync] under it
// waits between batches while the user is at work.
func InBackground(ctx context.Context) context.Context {
	return context.WithValue(ctx, backgroundKey{}, true)
}

func inBackground(ctx context.Context) bool {
	b, _ := ctx.Value(backgroundKey{}).(bool)
	return b
}

// yielding is the index's part in giving way: what says the user is at
// work, and how many foreground syncs wait for the index.
type yielding struct {
	busy    atomic.Pointer[func() bool]
	waiting atomic.Int32
}

// YieldTo makes background syncs wait between batches while busy reports
// true. Nil stops them waiting.
func (x *Index) YieldTo(busy func() bool) {
	if busy == nil {
		x.yield.busy.Store(nil)
		return
	}
	x.yield.busy.Store(&busy)
}

// giveWay waits, in a background sync, while the user is at work and no
// foreground sync waits for the index. It returns ctx's cause if ctx ends
// first.
func (x *Index) giveWay(ctx context.Context) error {
	if !inBackground(ctx) {
		return nil
	}
	for {
		busy := x.yield.busy.Load()
		if busy == nil || !(*busy)() || x.yield.waiting.Load() > 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-time.After(yieldPoll):
		}
	}
}
