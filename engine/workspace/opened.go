package workspace

import (
	"context"
	"sync"

	"ctxscope/engine/report"
	"ctxscope/engine/session"
	"ctxscope/engine/store"
	"ctxscope/engine/tokens"
)

// keepOpen is how many opened sessions stay in memory; the least
// recently used goes first.
const keepOpen = 8

// Opened is a stored session read into memory, as of one revision, with
// what every view of it derives: the requests of its main thread, the
// figures of its report and a token ledger per counter. It is shared by
// every caller that asks for the session at that revision, and read-only
// to them.
type Opened struct {
	// Row is the session's row as stored at the revision read.
	Row     store.SessionInfo
	Session *session.Session
	// Requests are the requests of the main thread, rebuilt from it.
	Requests []*session.Request
	// Figures are the counts of the session's report.
	Figures Figures

	mu      sync.Mutex // guards ledgers
	ledgers map[string]*tokens.Ledger

	derivedMu sync.Mutex // guards derived; held while a value is worked out
	derived   map[string]any
}

// Figures are the counts of a session that only its entries tell.
type Figures struct {
	ToolCalls   int
	Requests    int
	Compactions int
	Errors      int
	Warnings    int
}

// newOpened derives what every view needs from sess, read at row.
func newOpened(row store.SessionInfo, sess *session.Session) *Opened {
	o := &Opened{Row: row, Session: sess, ledgers: map[string]*tokens.Ledger{}, derived: map[string]any{}}
	if main := sess.Main(); main != nil {
		o.Requests = session.BuildRequests(main)
	}
	r := report.Build(sess)
	o.Figures = Figures{ToolCalls: r.ToolCalls, Requests: len(o.Requests), Compactions: len(r.Compactions), Errors: r.Errors, Warnings: r.Warnings}
	return o
}

// Revision is the stored revision the session was read at.
func (o *Opened) Revision() int { return o.Row.Revision }

// Ledger returns the session's token ledger for a counter (by name, as
// [tokens.ByName] takes it), made on first use and kept with the session.
func (o *Opened) Ledger(counter string) (*tokens.Ledger, error) {
	c, err := tokens.ByName(counter)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	l, ok := o.ledgers[c.Name()]
	if !ok {
		l = tokens.NewLedger(c)
		o.ledgers[c.Name()] = l
	}
	return l, nil
}

// Derived returns what derive works out from o's session, worked out once
// per opened session and name, and kept with it: the debugger's thread
// list, say, which walks every entry. Calls for the same name wait for
// the first.
func Derived[T any](o *Opened, name string, derive func(*session.Session) T) T {
	o.derivedMu.Lock()
	defer o.derivedMu.Unlock()
	if v, ok := o.derived[name]; ok {
		return v.(T)
	}
	v := derive(o.Session)
	o.derived[name] = v
	return v
}

// Session returns the stored session key read into memory (an error that
// wraps [store.ErrNotFound] when there is none). It is read once per
// stored revision: the workspace keeps the last few opened, and
// calls made while one is read wait for that read.
func (w *Workspace) Session(ctx context.Context, key string) (*Opened, error) {
	rev, err := w.Store.Revision(ctx, key)
	if err != nil {
		return nil, err
	}
	return w.opened.Get(ctx, key, rev, func(ctx context.Context, _ *Opened, _ bool) (*Opened, error) {
		return w.read(ctx, key)
	})
}

// HeldSession returns the session key when the workspace holds it in
// memory as of revision rev, without reading it.
func (w *Workspace) HeldSession(key string, rev int) (*Opened, bool) {
	return w.opened.Peek(key, rev)
}

// read reads a stored session, without keeping it.
func (w *Workspace) read(ctx context.Context, key string) (*Opened, error) {
	row, err := w.Store.Session(ctx, key)
	if err != nil {
		return nil, err
	}
	sess, err := w.Store.Load(key)
	if err != nil {
		return nil, err
	}
	return newOpened(row, sess), nil
}

// hold keeps a session an import decoded (store.KeepDecoded) as the
// opened session of its key, at the revision the import stored, unless
// the session has changed since.
func (w *Workspace) hold(ctx context.Context, c store.SessionChange) {
	row, err := w.Store.Session(ctx, c.Key)
	if err != nil || row.Revision != c.Revision {
		return // changed since: the next open reads it
	}
	w.opened.Alias(c.Key, c.Revision, newOpened(row, c.Decoded))
}
