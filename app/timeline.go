package app

import (
	"context"

	"ctxscope/engine/report"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// TimelineView is a session's per-request token timeline.
type TimelineView struct {
	SessionID string `json:"sessionId"`
	Counter   string `json:"counter"`
	// Categories names the parts of each point's breakdown, in order.
	Categories []string       `json:"categories"`
	Points     []report.Point `json:"points"`
	// Compactions are the source agent's own compaction markers.
	Compactions []report.Compaction `json:"compactions"`
}

// Counters lists the token counters, the default first.
func (s *Sessions) Counters(ctx context.Context) []string {
	s.app.called("Sessions.Counters")
	return tokens.Names
}

// Timeline measures every request of the session's main thread with the
// named counter ("estimate", "o200k" or "cl100k"). The first call for a
// BPE counter tokenizes the session; later calls reuse the counts.
func (s *Sessions) Timeline(ctx context.Context, id, counter string) (TimelineView, error) {
	s.app.called("Sessions.Timeline", id, counter)
	ctx, done := s.app.latest.begin(ctx, "Sessions.Timeline")
	defer done()
	o, err := s.get(ctx, id)
	if err != nil {
		return TimelineView{}, err
	}
	l, err := o.Ledger(counter)
	if err != nil {
		return TimelineView{}, err
	}
	if err := l.Prefetch(ctx, requestMessages(o.Requests)); err != nil {
		return TimelineView{}, err
	}
	v := TimelineView{
		SessionID:   id,
		Counter:     l.Counter().Name(),
		Categories:  tokens.CategoryNames(),
		Points:      report.Timeline(o.Requests, l),
		Compactions: []report.Compaction{},
	}
	if main := o.Session.Main(); main != nil {
		v.Compactions = report.Compactions(main, o.Requests)
	}
	return v, nil
}

// requestMessages lists the messages of reqs' inputs, each once.
func requestMessages(reqs []*session.Request) []*session.Message {
	seen := map[*session.Message]bool{}
	var out []*session.Message
	for _, q := range reqs {
		for _, m := range q.Input() {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}
