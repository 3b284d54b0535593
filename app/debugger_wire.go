package app

import (
	"context"
	"fmt"

	"ctxscope/engine/debug"
	"ctxscope/engine/session"
	"ctxscope/engine/wire"
)

// WireView sets one request of a session's log beside the same request as
// the recording proxy saw it.
type WireView struct {
	// Matched says a recorded conversation of the thread was found; Wire
	// is its key and Title its title.
	Matched bool   `json:"matched"`
	Wire    string `json:"wire,omitempty"`
	Title   string `json:"title,omitempty"`
	// Requests is how many of the thread's requests the wire holds, of
	// Total.
	Requests int `json:"requests"`
	Total    int `json:"total"`
	// Diff is what differs at the request asked for.
	Diff wire.Diff `json:"diff"`
	// Note says why there is nothing to compare, when there is not.
	Note string `json:"note,omitempty"`
}

// maxWireCandidates bounds the recorded conversations looked through for
// the one of a log's thread.
const maxWireCandidates = 500

// Wire joins thread of session key to its conversation recorded by the
// proxy, and says for request k what was sent that the log lacks and what
// the log holds that was not sent, in the tokens of counter ("" for the
// session's).
func (d *Debugger) Wire(ctx context.Context, key string, thread, k int, counter string) (WireView, error) {
	d.app.called("Debugger.Wire", key, thread, k, counter)
	o, err := d.app.sessions.get(ctx, key)
	if err != nil {
		return WireView{}, err
	}
	if thread < 0 || thread >= len(o.Session.Threads) {
		return WireView{}, fmt.Errorf("session %q has no thread %d", key, thread)
	}
	if o.Session.Format == session.FormatProxy {
		return WireView{Note: "this session was recorded by the proxy: it is the wire"}, nil
	}
	th := o.Session.Threads[thread]
	cands, err := d.wireCandidates(ctx)
	if err != nil {
		return WireView{}, err
	}
	wireKey, ok := wire.Match(o.Session, th, cands)
	if !ok {
		return WireView{Note: "no conversation recorded by the proxy matches this thread"}, nil
	}
	w, err := d.app.sessions.get(ctx, wireKey)
	if err != nil {
		return WireView{}, err
	}
	l, err := o.Ledger(debug.LedgerCounter(counter))
	if err != nil {
		return WireView{}, err
	}
	lr, wr := session.BuildRequests(th), session.BuildRequests(w.Session.Main())
	pairs := wire.Pair(lr, wr)
	v := WireView{Matched: true, Wire: wireKey, Title: w.Session.Title, Total: len(lr), Diff: wire.At(lr, wr, pairs, k, l.Counter())}
	for _, p := range pairs {
		if p >= 0 {
			v.Requests++
		}
	}
	return v, nil
}

// wireCandidates summarises the workspace's sessions recorded by the
// proxy, up to maxWireCandidates, each read once per revision.
func (d *Debugger) wireCandidates(ctx context.Context) ([]wire.Candidate, error) {
	infos, err := d.app.ws.Store.Sessions(ctx, 0, 0)
	if err != nil {
		return nil, err
	}
	var out []wire.Candidate
	for _, info := range infos {
		if info.Format != string(session.FormatProxy) || len(out) >= maxWireCandidates {
			continue
		}
		c, err := d.wires.Get(ctx, info.Key, info.Revision, func(context.Context, wire.Candidate, bool) (wire.Candidate, error) {
			o, err := d.app.sessions.get(ctx, info.Key)
			if err != nil {
				return wire.Candidate{}, err
			}
			return wire.CandidateOf(info.Key, o.Session), nil
		})
		if err != nil {
			continue // deleted meanwhile
		}
		out = append(out, c)
	}
	return out, nil
}
