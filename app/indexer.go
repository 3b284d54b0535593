package app

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"ctxscope/search"
)

// quietBeforeIndexing is how long the frontend must have made no call
// before a background sync starts, or goes on after a batch. Indexing
// takes both cores for seconds on a large session (2.3 s for 8.7 MB), and
// a user who has just opened one is dragging τ or stepping through it:
// those replies come first. It is counted from the start of the last
// call, and the page's work on a reply makes no call: at paper scale a
// page load spends 0.4 s drawing the replay after its reply, which a
// quiet of 0.4 s (before) did not cover.
const quietBeforeIndexing = time.Second

// indexer brings the search index up to date in the background after
// imports, so that an imported session shows before its text is indexed
// (indexing a 2.4 MB session takes about ten times as long as storing
// it). A sync waits for a quiet moment (see quietBeforeIndexing). Kicks
// while a sync runs or waits coalesce into one more sync. Searches sync
// first themselves, so they never miss what was imported.
type indexer struct {
	app  *App
	kick chan struct{}
	stop chan struct{}
	done chan struct{}
	once sync.Once
	// lastCall is when the frontend last called a bound method, in
	// nanoseconds since the Unix epoch.
	lastCall atomic.Int64
}

func newIndexer(a *App) *indexer {
	x := &indexer{app: a, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	if a.ws.Index != nil {
		a.ws.Index.YieldTo(x.userAtWork)
	}
	go x.run()
	return x
}

// userAtWork reports whether the frontend called a bound method within
// quietBeforeIndexing: a background sync under way then waits between
// its batches (see search.InBackground).
func (x *indexer) userAtWork() bool { return x.sinceLastCall() < quietBeforeIndexing }

// sinceLastCall is how long ago the frontend last called a bound method.
func (x *indexer) sinceLastCall() time.Duration {
	return time.Since(time.Unix(0, x.lastCall.Load()))
}

// request asks for a sync soon. The request counts as activity: what
// imported (opening a session, a live append) is followed by the
// frontend's calls to show it, which come first.
func (x *indexer) request() {
	x.busy()
	select {
	case x.kick <- struct{}{}:
	default: // one is pending already
	}
}

func (x *indexer) run() {
	defer close(x.done)
	// A sync under way stops at its next batch when the indexer stops;
	// the batches written stay, and the next sync resumes after them.
	ctx, cancel := context.WithCancel(search.InBackground(context.Background()))
	defer cancel()
	go func() {
		<-x.stop
		cancel()
	}()
	for {
		select {
		case <-x.stop:
			return
		case <-x.kick:
			if !x.waitQuiet() {
				return
			}
			if _, err := x.app.ws.Sync(ctx); err != nil && ctx.Err() == nil {
				x.app.logf("index: %v", err)
			}
		}
	}
}

// busy records that the frontend called a bound method now.
func (x *indexer) busy() { x.lastCall.Store(time.Now().UnixNano()) }

// waitQuiet waits until no call has come for quietBeforeIndexing. It
// returns false when the indexer is stopped meanwhile.
func (x *indexer) waitQuiet() bool {
	for {
		wait := quietBeforeIndexing - x.sinceLastCall()
		if wait <= 0 {
			return true
		}
		select {
		case <-x.stop:
			return false
		case <-time.After(wait):
		}
	}
}

// close stops the indexer, and a running sync at its next batch.
func (x *indexer) close() {
	x.once.Do(func() {
		close(x.stop)
		<-x.done
	})
}
