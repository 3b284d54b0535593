package app

import (
	"context"
	"errors"
	"fmt"

	"ctxscope/app/graphs"
	"ctxscope/engine/debug"
	"ctxscope/engine/memory"
	"ctxscope/engine/memory/code"
	"ctxscope/engine/recall"
	"ctxscope/engine/session"
)

// maxRecallPassageBytes bounds the text of each recalled passage a reply
// carries; a passage is one chunk of a block (code.chunks), so this only
// trims the odd long one.
const maxRecallPassageBytes = 1200

// SessionMemory is the memory of a session's thread followed through one
// replay: its knowledge graph laid out, each relation with its stays in
// the input and its recalls, and what recall brought back at each
// look-back. The state of an item at any request follows from its spans
// (see recall.Item.At), so the browser redraws a request without asking.
type SessionMemory struct {
	Policy       string `json:"policy"`
	Budget       int    `json:"budget"`
	Requests     int    `json:"requests"`
	RecallBudget int    `json:"recallBudget"`
	// Graph holds the entities and relations of the thread's items.
	Graph graphs.KnowledgeView `json:"graph"`
	Items []MemoryItem         `json:"items"`
	// LookBacks are the replay's look-backs at which the memory holds
	// the evicted read, each with what both recalls brought back.
	LookBacks []LookBackRecall `json:"lookBacks"`
	// Skipped counts look-backs whose evicted read the memory does not
	// hold.
	Skipped int            `json:"skipped"`
	Memory  recall.Summary `json:"memory"`
	BM25    recall.Summary `json:"bm25"`
}

// MemoryItem is one relation of the thread's memory with where it came
// from and what the replay did to that content.
type MemoryItem struct {
	recall.Item
	Subject   string `json:"subject"`
	Predicate string `json:"predicate"`
	Object    string `json:"object"`
	Time      string `json:"time,omitempty"`
	Condition string `json:"condition,omitempty"`
	// Where is the first block it was read from: the first request that
	// shows it, the message's index in that request's context and the
	// block's index in the message.
	Where BlockPlace `json:"where"`
	// Places are the blocks of its spans, in the same order.
	Places []BlockPlace `json:"places"`
}

// BlockPlace locates a block of the thread in the debugger.
type BlockPlace struct {
	Request int `json:"request"`
	Message int `json:"message"`
	Block   int `json:"block"`
}

// LookBackRecall is one look-back with the passages each recall brought
// back within the recall budget.
type LookBackRecall struct {
	Request int           `json:"request"`
	Kind    string        `json:"kind"`
	Path    string        `json:"path"`
	Query   string        `json:"query"`
	Memory  RecallShown   `json:"memory"`
	BM25    RecallShown   `json:"bm25"`
	Target  []RecallPlace `json:"target"`
}

// RecallShown is what one recall brought back at a look-back.
type RecallShown struct {
	Recovered bool              `json:"recovered"`
	Coverage  float64           `json:"coverage"`
	Tokens    int               `json:"tokens"`
	Passages  []RecalledPassage `json:"passages"`
}

// RecalledPassage is a recalled passage as the model would receive it,
// with where its block is and whether it is part of the evicted read.
type RecalledPassage struct {
	ID     string     `json:"id"`
	Text   string     `json:"text"`
	Target bool       `json:"target"`
	Where  BlockPlace `json:"where"`
}

// RecallPlace is a passage of the evicted read with where its block is.
type RecallPlace struct {
	ID    string     `json:"id"`
	Where BlockPlace `json:"where"`
}

// Memory follows the memory of thread p.Thread of a session through the
// replay under p's policy and budget. The memory is read from the
// session's tool calls and results (package code) once per revision,
// and from the new entries only when a live session grows; its recall
// index is built once per revision and thread, so that a new τ costs a
// replay and an evaluation, not an index.
func (d *Debugger) Memory(ctx context.Context, key string, p debug.Params) (*SessionMemory, error) {
	d.app.called("Debugger.Memory", key, p)
	ctx, done := d.app.latest.begin(ctx, "Debugger.Memory")
	defer done()
	r, mem, layout, err := d.withMemory(ctx, key, p)
	if err != nil {
		return nil, err
	}
	life, err := r.Lifecycle(p)
	if err != nil {
		return nil, err
	}
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	mem.mu.Lock()
	defer mem.mu.Unlock()
	x, err := mem.index(ctx, r.Thread, p.Thread)
	if err != nil {
		return nil, err
	}
	f, err := x.Follow(ctx, life)
	if err != nil {
		return nil, err
	}
	return followedReply(mem.m, r.Replay, life, f, layout), nil
}

// withMemory returns what Memory and MemoryVariants start from: the
// prepared replay of thread p.Thread, and the session's memory with the
// layout of that thread's graph.
func (d *Debugger) withMemory(ctx context.Context, key string, p debug.Params) (*preparedReplay, *liveMemory, *graphs.KnowledgeView, error) {
	r, err := d.replay(ctx, key, p)
	if err != nil {
		return nil, nil, nil, err
	}
	o, err := d.app.sessions.get(ctx, key)
	if err != nil {
		return nil, nil, nil, err
	}
	mem, layout, err := d.memories.view(ctx, key, o, p.Thread)
	if err != nil {
		return nil, nil, nil, err
	}
	return r, mem, layout, nil
}

// followedReply assembles the reply of Memory.
func followedReply(m *memory.Memory, r *debug.Replay, life *debug.Lifecycle, f *recall.Followed, layout *graphs.KnowledgeView) *SessionMemory {
	ords := map[*session.Entry]int{}
	for i, e := range r.Thread.Entries {
		ords[e] = i
	}
	place := func(k debug.BlockKey) BlockPlace {
		l, ok := r.Locate(ords[k.Entry])
		if !ok {
			return BlockPlace{Request: -1, Message: -1, Block: k.Block}
		}
		return BlockPlace{Request: l.Request, Message: l.Message, Block: k.Block}
	}
	rep := f.Report
	out := &SessionMemory{Policy: life.Policy, Budget: life.Budget, Requests: life.Requests, RecallBudget: rep.RecallBudget,
		Graph: *layout, Items: make([]MemoryItem, 0, len(f.Items)), LookBacks: make([]LookBackRecall, 0, len(rep.Events)),
		Skipped: rep.Skipped, Memory: rep.Memory, BM25: rep.BM25}
	name := func(id string) string {
		if e, ok := m.Graph.Entity(id); ok {
			return e.Name
		}
		return id
	}
	for _, it := range f.Items {
		rel, ok := m.Graph.Relation(it.Relation)
		if !ok {
			continue
		}
		out.Items = append(out.Items, MemoryItem{Item: it, Subject: name(rel.Subject), Predicate: rel.Predicate, Object: name(rel.Object),
			Time: rel.TimeString(), Condition: rel.Condition, Where: place(it.Source), Places: places(it.Sources, place)})
	}
	blocks := f.Blocks
	for _, ev := range rep.Events {
		lb := LookBackRecall{Request: ev.Request, Kind: ev.Kind, Path: ev.Path, Query: ev.Query, Target: make([]RecallPlace, len(ev.Target))}
		for i, id := range ev.Target {
			lb.Target[i] = RecallPlace{ID: id, Where: place(blocks[id])}
		}
		shown := func(o recall.Outcome) RecallShown {
			s := RecallShown{Recovered: o.Recovered, Coverage: o.Coverage, Tokens: o.Tokens, Passages: make([]RecalledPassage, 0, len(o.Passages))}
			for _, id := range o.Passages {
				p, _ := m.Passage(id)
				text := ""
				if p != nil {
					text = clip(p.Text, maxRecallPassageBytes)
				}
				s.Passages = append(s.Passages, RecalledPassage{ID: id, Text: text, Target: contains(ev.Target, id), Where: place(blocks[id])})
			}
			return s
		}
		lb.Memory, lb.BM25 = shown(ev.Memory), shown(ev.BM25)
		out.LookBacks = append(out.LookBacks, lb)
	}
	return out
}

func places(keys []debug.BlockKey, place func(debug.BlockKey) BlockPlace) []BlockPlace {
	out := make([]BlockPlace, len(keys))
	for i, k := range keys {
		out[i] = place(k)
	}
	return out
}

// clip cuts s to at most n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + fmt.Sprintf("… (%d more bytes)", len(s)-n)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// maxVariantBudgets bounds the budgets of one MemoryVariants call: each
// costs two detail replays.
const maxVariantBudgets = 16

// MemoryVariants measures the paper+memory variant of thread p.Thread at
// each budget: the paper policy at τ − B with the memory's recall of at
// most B tokens injected at each look-back, against the paper policy at
// τ (see recall.Variant). The replies carry the totals, not the events.
func (d *Debugger) MemoryVariants(ctx context.Context, key string, p debug.Params, budgets []int) ([]*recall.Variant, error) {
	d.app.called("Debugger.MemoryVariants", key, p, budgets)
	if len(budgets) == 0 || len(budgets) > maxVariantBudgets {
		return nil, fmt.Errorf("between 1 and %d budgets, not %d", maxVariantBudgets, len(budgets))
	}
	ctx, done := d.app.latest.begin(ctx, "Debugger.MemoryVariants")
	defer done()
	r, mem, _, err := d.withMemory(ctx, key, p)
	if err != nil {
		return nil, err
	}
	mem.mu.Lock()
	defer mem.mu.Unlock()
	x, err := mem.index(ctx, r.Thread, p.Thread)
	if err != nil {
		return nil, err
	}
	vs, err := x.Variants(ctx, r.Replay, budgets)
	if err != nil {
		return nil, err
	}
	for _, v := range vs {
		v.Recall.Events = nil
	}
	return vs, nil
}

// PassagePlace is where the block of a session memory's passage shows in
// the debugger.
type PassagePlace struct {
	Thread int `json:"thread"`
	BlockPlace
}

// LocatePassage returns where the block a passage of a session's memory
// was read from shows: its thread, the first request whose input holds
// it, the message's index in that context and the block's index. The
// passage id is one package code writes ("t2:entry#block.chunk").
func (d *Debugger) LocatePassage(ctx context.Context, key, passage string) (PassagePlace, error) {
	d.app.called("Debugger.LocatePassage", key, passage)
	ref, ok := code.ParseRef(passage)
	if !ok {
		return PassagePlace{}, fmt.Errorf("%q is not a passage of a session memory", passage)
	}
	o, err := d.app.sessions.get(ctx, key)
	if err != nil {
		return PassagePlace{}, err
	}
	if ref.Thread >= len(o.Session.Threads) {
		return PassagePlace{}, fmt.Errorf("session %q has no thread %d", key, ref.Thread)
	}
	for i, e := range o.Session.Threads[ref.Thread].Entries {
		if code.EntryRef(e) != ref.Entry {
			continue
		}
		l, ok := debug.NewLocator(o.Session.Threads[ref.Thread], nil).Locate(i)
		if !ok {
			return PassagePlace{}, errors.New("no request shows this passage's entry")
		}
		return PassagePlace{Thread: ref.Thread, BlockPlace: BlockPlace{Request: l.Request, Message: l.Message, Block: ref.Block}}, nil
	}
	return PassagePlace{}, fmt.Errorf("%w: passage %q names no entry of the session as it is now", ErrNotFound, passage)
}
