package app

import (
	"context"
	"sync"
)

// indexer brings the search index up to date in the background after
// imports, so that an imported session shows before its text is indexed
// (indexing a 2.4 MB session takes about ten times as long as storing
// it). Kicks while a sync runs coalesce into one more sync. Searches sync
// first themselves, so they never miss what was imported.
type indexer struct {
	app  *App
	kick chan struct{}
	stop chan struct{}
	done chan struct{}
	once sync.Once
}

func newIndexer(a *App) *indexer {
	x := &indexer{app: a, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go x.run()
	return x
}

// request asks for a sync soon.
func (x *indexer) request() {
	select {
	case x.kick <- struct{}{}:
	default: // one is pending already
	}
}

func (x *indexer) run() {
	defer close(x.done)
	for {
		select {
		case <-x.stop:
			return
		case <-x.kick:
			if _, err := x.app.ws.Sync(context.Background()); err != nil {
				x.app.logf("index: %v", err)
			}
		}
	}
}

// close waits for a running sync and stops the indexer.
func (x *indexer) close() {
	x.once.Do(func() {
		close(x.stop)
		<-x.done
	})
}
