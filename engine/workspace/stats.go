package workspace

import (
	"context"
	"time"

	"ctxscope/engine/report"
)

// Stats are the figures of a session that need it read; the workspace
// keeps them in its settings, keyed by the session's revision, so that a
// list of sessions shows them without reading every session.
type Stats struct {
	Revision    int   `json:"revision"`
	Requests    int   `json:"requests"`
	ToolCalls   int   `json:"toolCalls"`
	Compactions int   `json:"compactions"`
	Errors      int   `json:"errors"`
	Warnings    int   `json:"warnings"`
	Peak        int   `json:"peak"`  // the largest request input (estimate)
	Total       int64 `json:"total"` // Σ request inputs (estimate)
	// LastActivity is the time of the session's latest entry.
	LastActivity time.Time `json:"lastActivity"`
}

func statsSetting(key string) string { return "stats:" + key }

// Stats returns a session's stats, from the workspace settings when they
// are current, else worked out from the session and stored. Whether they
// are current is told by the session's revision alone: the whole row
// counts the session's entries (11–14 ms of every open of a session of
// 27,000 entries). A session read only for its stats is not kept in
// memory (a folder's import would read them all); one held is used.
func (w *Workspace) Stats(ctx context.Context, key string) (Stats, error) {
	rev, err := w.Store.Revision(ctx, key)
	if err != nil {
		return Stats{}, err
	}
	var st Stats
	if ok, err := w.Store.Setting(ctx, statsSetting(key), &st); err == nil && ok && st.Revision == rev {
		return st, nil
	}
	o, ok := w.HeldSession(key, rev)
	if !ok {
		if o, err = w.read(ctx, key); err != nil {
			return Stats{}, err
		}
	}
	if st, err = statsOf(o); err != nil {
		return Stats{}, err
	}
	return st, w.Store.PutSetting(ctx, statsSetting(key), st)
}

// statsOf works out the stats of an opened session.
func statsOf(o *Opened) (Stats, error) {
	f := o.Figures
	st := Stats{Revision: o.Revision(), Requests: f.Requests, ToolCalls: f.ToolCalls, Compactions: f.Compactions, Errors: f.Errors, Warnings: f.Warnings}
	l, err := o.Ledger("estimate")
	if err != nil {
		return Stats{}, err
	}
	for _, t := range o.Session.Threads {
		for _, e := range t.Entries {
			if e.Time.After(st.LastActivity) {
				st.LastActivity = e.Time
			}
		}
	}
	for _, p := range report.Timeline(o.Requests, l) {
		st.Peak = max(st.Peak, p.Tokens)
		st.Total += int64(p.Tokens)
	}
	return st, nil
}
