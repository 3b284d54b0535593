package debug

import (
	"fmt"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
)

// EpisodeState is what the episode graph of request k's context needs:
// the context's episodes, how many of its messages the request's input
// holds, and each episode's eviction level at the request.
type EpisodeState struct {
	Context  int
	Episodes *cwl.Episodes
	Len      int // messages of the context in the request's input
	Levels   []int
	// Messages is the whole context, for episode times.
	Messages []*session.Message
}

// EpisodesAt replays up to request k under p and returns the episode
// state of its context.
func (r *Replay) EpisodesAt(p Params, k int) (*EpisodeState, error) {
	if k < 0 || k >= len(r.reqs) {
		return nil, fmt.Errorf("debug: request %d out of range [0, %d)", k, len(r.reqs))
	}
	r.viewMu.Lock()
	defer r.viewMu.Unlock()
	rep := r.viewReplayer()
	v, err := rep.ContextAt(r.runOptions(p), k)
	if err != nil {
		return nil, err
	}
	q := r.reqs[k]
	return &EpisodeState{Context: v.Context, Episodes: rep.EpisodesOf(k), Len: q.Len, Levels: v.Levels, Messages: q.Context.Messages}, nil
}
