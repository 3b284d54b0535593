package recall

import (
	"context"

	"ctxscope/engine/debug"
	"ctxscope/engine/memory"
	"ctxscope/engine/session"
)

// Span is one stay of a memory item's content in a replay's input: it
// entered at request Entered and eviction removed it at request Evicted,
// at Level; Evicted is -1 when it stayed to the end.
type Span struct {
	Entered int `json:"entered"`
	Evicted int `json:"evicted"`
	Level   int `json:"level"`
}

// Item is one relation of a session memory followed through a replay:
// when the blocks it was read from were in the input, and when recall
// brought it back.
type Item struct {
	Relation string `json:"relation"`
	// Spans are the stays of its source blocks in the input, one per
	// block of the thread, in the order the relation cites them.
	Spans []Span `json:"spans"`
	// Recalled are the look-back requests at which the memory's recall
	// packed one of its passages while its content was out of the input.
	Recalled []int `json:"recalled"`
	// Episode names the episode of its first source block ("" outside
	// every episode), as the episode DAG names it.
	Episode string `json:"episode,omitempty"`
	// Source is the block of its first passage in the thread, and
	// Sources the block of each span.
	Source  debug.BlockKey   `json:"-"`
	Sources []debug.BlockKey `json:"-"`
}

// Followed is a replay's recall report with every relation of the thread
// followed through the replay.
type Followed struct {
	Report *Report
	Items  []Item
	// Blocks maps each passage of the thread to its block.
	Blocks map[string]debug.BlockKey
}

// Follow evaluates recall at the look-backs of life, as [Evaluate] does,
// and follows each relation of mem cited by thread number thread through
// life. Relations read from other threads are left out.
func Follow(mem *memory.Memory, t *session.Thread, thread int, life *debug.Lifecycle, o Options) (*Followed, error) {
	x, err := NewIndex(context.Background(), mem, t, thread, o)
	if err != nil {
		return nil, err
	}
	return x.Follow(context.Background(), life)
}

// follow makes the item of every relation of the thread.
func (ix *index) follow(life *debug.Lifecycle, rep *Report) []Item {
	recalledAt := map[string][]int{} // passage id -> look-back requests
	for _, ev := range rep.Events {
		for _, id := range ev.Memory.Passages {
			recalledAt[id] = append(recalledAt[id], ev.Request)
		}
	}
	var out []Item
	for _, r := range ix.mem.Graph.Relations() {
		it := Item{Relation: r.ID, Spans: []Span{}, Recalled: []int{}}
		seen := map[debug.BlockKey]bool{}
		for _, id := range r.Passages {
			key, ok := ix.block[id]
			if !ok {
				continue
			}
			if it.Source.Entry == nil {
				it.Source = key
				it.Episode = life.Blocks[key].Episode
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			if b, ok := life.Blocks[key]; ok {
				it.Spans = append(it.Spans, Span{Entered: b.Entered, Evicted: b.Evicted, Level: b.Level})
				it.Sources = append(it.Sources, key)
			}
		}
		if it.Source.Entry == nil {
			continue
		}
		for _, id := range r.Passages {
			for _, k := range recalledAt[id] {
				if it.outAt(k) && !containsInt(it.Recalled, k) {
					it.Recalled = append(it.Recalled, k)
				}
			}
		}
		out = append(out, it)
	}
	return out
}

// State names where an item stands at a request.
type State string

// The states of an item at a request.
const (
	// Pending: none of its source blocks has entered the input yet.
	Pending State = "pending"
	// InContext: one of its source blocks is in the input.
	InContext State = "context"
	// Evicted: its source blocks entered and eviction removed them all.
	Evicted State = "evicted"
	// Recovered: evicted, and recall brought it back at a look-back
	// since its last eviction.
	Recovered State = "recovered"
)

// At is the item's state at request k, and for an evicted or recovered
// item the level of the eviction that removed the last of its content.
func (it *Item) At(k int) (State, int) {
	entered, level, lastOut := false, 0, -1
	for _, s := range it.Spans {
		if s.Entered > k {
			continue
		}
		entered = true
		if s.Evicted < 0 || s.Evicted > k {
			return InContext, 0
		}
		if s.Evicted > lastOut {
			lastOut, level = s.Evicted, s.Level
		}
	}
	if !entered {
		return Pending, 0
	}
	for _, r := range it.Recalled {
		if r >= lastOut && r <= k {
			return Recovered, level
		}
	}
	return Evicted, level
}

// outAt reports whether the item's content had entered and was all out of
// the input at request k.
func (it *Item) outAt(k int) bool {
	s, _ := it.At(k)
	return s == Evicted || s == Recovered
}

func containsInt(list []int, x int) bool {
	for _, v := range list {
		if v == x {
			return true
		}
	}
	return false
}
