package app

import (
	"context"
	"time"

	"ctxscope/engine/report"
)

// sessionStats are the figures of a session that need it loaded; they are
// kept in the workspace settings, keyed by the session's revision, so that
// the session list shows them without loading every session.
type sessionStats struct {
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

// keepOpen is how many opened sessions stay in memory; the least
// recently used goes first.
const keepOpen = 8

func statsSetting(key string) string { return "stats:" + key }
func seenSetting(key string) string  { return "seen:" + key }

// statsOf returns a session's stats, from the workspace settings when
// they are current, else computed from the loaded session and stored.
// Whether they are current is told by the session's revision alone: the
// whole row counts the session's entries (11–14 ms of every open of a
// session of 27,000 entries).
func (s *Sessions) statsOf(key string) (sessionStats, error) {
	ctx := context.Background()
	rev, err := s.app.ws.Store.Revision(ctx, key)
	if err != nil {
		return sessionStats{}, err
	}
	var st sessionStats
	if ok, err := s.app.ws.Store.Setting(ctx, statsSetting(key), &st); err == nil && ok && st.Revision == rev {
		return st, nil
	}
	// A session loaded only for its stats is not kept (a folder import
	// would load them all).
	o, ok := s.open.peek(key, rev)
	if !ok {
		row, err := s.app.ws.Store.Session(ctx, key)
		if err != nil {
			return sessionStats{}, err
		}
		if o, err = s.load(key, row); err != nil {
			return sessionStats{}, err
		}
	}
	st = sessionStats{Revision: o.revision, Requests: o.info.Requests, ToolCalls: o.info.ToolCalls, Compactions: o.info.Compactions,
		Errors: o.info.Errors, Warnings: o.info.Warnings}
	l, err := o.ledger("estimate")
	if err != nil {
		return sessionStats{}, err
	}
	for _, t := range o.s.Threads {
		for _, e := range t.Entries {
			if e.Time.After(st.LastActivity) {
				st.LastActivity = e.Time
			}
		}
	}
	for _, p := range report.Timeline(o.requests, l) {
		st.Peak = max(st.Peak, p.Tokens)
		st.Total += int64(p.Tokens)
	}
	return st, s.app.ws.Store.PutSetting(ctx, statsSetting(key), st)
}

// seen returns how many requests of a session the user has seen.
func (s *Sessions) seen(key string) int {
	var n int
	s.app.local.get(seenSetting(key), &n)
	return n
}

// MarkSeen records that the user has seen the first requests requests of
// a session: what comes after is "new since last seen".
func (s *Sessions) MarkSeen(ctx context.Context, key string, requests int) error {
	s.app.called("Sessions.MarkSeen", key, requests)
	if requests < 0 {
		return nil
	}
	if _, err := s.get(key); err != nil {
		return err
	}
	return s.app.local.put(seenSetting(key), requests)
}
