// Package recall measures what a session memory brings back of the
// content CWL eviction removed. At every look-back of a replay (the agent
// reads a file, runs a search or an inspecting command again after
// eviction removed the earlier one), it asks the memory, with the
// request's recent context, for at most B tokens of evicted passages, and
// checks whether the earlier call's result is among them; BM25 over the
// same evicted passages, packed into the same B tokens, is the baseline.
package recall

import (
	"context"
	"fmt"
	"math"
	"strings"

	"ctxscope/engine/debug"
	"ctxscope/engine/memory"
	"ctxscope/engine/memory/code"
	"ctxscope/engine/memory/kg"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// DefaultBudget is the recall budget B, in tokens.
const DefaultBudget = 500

// Options configure an evaluation.
type Options struct {
	// Budget is B: the most tokens one recall may add. 0 means
	// DefaultBudget.
	Budget int
	// Counter counts the tokens of recalled passages as rendered.
	Counter tokens.Counter
	// Index builds the BM25 index (search/lexical.Build).
	Index memory.IndexFunc
}

// Outcome is what one recall brought back at one look-back.
type Outcome struct {
	// Recovered is set when a passage of the evicted read's result is
	// among the recalled passages; Coverage is the share of the result's
	// passages that are.
	Recovered bool     `json:"recovered"`
	Coverage  float64  `json:"coverage"`
	Tokens    int      `json:"tokens"`
	Passages  []string `json:"passages"`
}

// Event is one look-back and what each recall brought back.
type Event struct {
	Request int `json:"request"`
	// Kind and Path are the look-back's (see debug.LookBack).
	Kind string `json:"kind"`
	Path string `json:"path"`
	// Target are the passages of the evicted read's result: the content
	// the agent went back for.
	Target []string `json:"target"`
	Query  string   `json:"query"`
	Memory Outcome  `json:"memory"`
	BM25   Outcome  `json:"bm25"`
}

// Summary totals the outcomes of one recall over a replay's look-backs.
type Summary struct {
	Recovered int     `json:"recovered"`
	Rate      float64 `json:"rate"`
	Coverage  float64 `json:"coverage"` // mean over events
	Tokens    int     `json:"tokens"`   // all recalls together
}

// Report is the evaluation of one replay.
type Report struct {
	Policy       string  `json:"policy"`
	Budget       int     `json:"budget"`       // τ
	RecallBudget int     `json:"recallBudget"` // B
	LookBacks    int     `json:"lookBacks"`    // events with their evicted result in the memory
	Skipped      int     `json:"skipped"`      // look-backs whose result the memory does not hold
	Memory       Summary `json:"memory"`
	BM25         Summary `json:"bm25"`
	Events       []Event `json:"events"`
}

// Evaluate measures recall at every look-back of life, a lifecycle of
// thread number thread of the session mem was read from (by package
// code, whose passage ids name their blocks).
func Evaluate(mem *memory.Memory, t *session.Thread, thread int, life *debug.Lifecycle, o Options) (*Report, error) {
	x, err := NewIndex(context.Background(), mem, t, thread, o)
	if err != nil {
		return nil, err
	}
	return x.Evaluate(context.Background(), life)
}

// withDefaults fills in the recall budget and checks that o names a
// counter and an index.
func (o Options) withDefaults() (Options, error) {
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	if o.Counter == nil || o.Index == nil {
		return o, fmt.Errorf("recall: a counter and an index are needed")
	}
	return o, nil
}

// evaluate measures recall at every look-back of life. It returns ctx's
// cause when ctx ends first: at paper scale a look-back's search takes
// tens of milliseconds, and there are hundreds.
func (ix *index) evaluate(ctx context.Context, life *debug.Lifecycle, o Options) (*Report, error) {
	mem := ix.mem
	rep := &Report{Policy: life.Policy, Budget: life.Budget, RecallBudget: o.Budget}
	type seenKey struct {
		k    int
		path string
	}
	seen := map[seenKey]bool{}
	for _, lb := range life.LookBacks {
		if err := context.Cause(ctx); err != nil {
			return nil, err
		}
		if seen[seenKey{lb.Request, lb.Path}] {
			continue // a response that reads the same file twice goes back once
		}
		seen[seenKey{lb.Request, lb.Path}] = true
		target := ix.passages[lb.Result]
		if lb.Result.Entry == nil || len(target) == 0 {
			rep.Skipped++
			continue
		}
		ev := Event{Request: lb.Request, Kind: lb.Kind, Path: lb.Path, Target: target, Query: ix.query(lb.Recent)}
		gone := func(id string) bool { return life.Gone(ix.block[id], lb.Request) }
		lexical, err := ix.lexical(ev.Query, gone)
		if err != nil {
			return nil, err
		}
		ev.BM25 = pack(mem, lexical, target, o)
		ev.Memory = pack(mem, append(ix.graph(ev.Query, gone), lexical...), target, o)
		rep.Events = append(rep.Events, ev)
	}
	rep.LookBacks = len(rep.Events)
	rep.Memory = summarize(rep.Events, func(e Event) Outcome { return e.Memory })
	rep.BM25 = summarize(rep.Events, func(e Event) Outcome { return e.BM25 })
	return rep, nil
}

func summarize(evs []Event, of func(Event) Outcome) Summary {
	var s Summary
	for _, e := range evs {
		o := of(e)
		if o.Recovered {
			s.Recovered++
		}
		s.Coverage += o.Coverage
		s.Tokens += o.Tokens
	}
	if len(evs) > 0 {
		s.Rate = float64(s.Recovered) / float64(len(evs))
		s.Coverage /= float64(len(evs))
	}
	return s
}

// pack takes ranked passages, each once, while they fit in the budget,
// and scores them against the target.
func pack(mem *memory.Memory, ranked, target []string, o Options) Outcome {
	out := Outcome{Passages: []string{}}
	seen := map[string]bool{}
	misses := 0
	for _, id := range ranked {
		if seen[id] {
			continue
		}
		seen[id] = true
		p, ok := mem.Passage(id)
		if !ok {
			continue
		}
		n := countText(o.Counter, Render(p))
		if out.Tokens+n > o.Budget {
			if misses++; misses > 8 {
				break
			}
			continue
		}
		out.Tokens += n
		out.Passages = append(out.Passages, id)
	}
	hit := 0
	for _, id := range target {
		if contains(out.Passages, id) {
			hit++
		}
	}
	out.Recovered = hit > 0
	out.Coverage = float64(hit) / float64(len(target))
	return out
}

// Render is a recalled passage as the model would receive it: where it
// came from, then its text.
func Render(p *memory.Passage) string { return "[" + p.ID + "] " + p.Text + "\n" }

// countText counts text as part of one injected message: the tokens of
// its block, without a message's own overhead (the recalled passages go
// in one message).
func countText(c tokens.Counter, text string) int {
	m := &session.Message{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: text}}}
	return int(math.Ceil(c.Weight(c.Units(m, &m.Blocks[0]))))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// index maps a thread's passages to their blocks and back, and holds the
// BM25 index over them.
type index struct {
	mem      *memory.Memory
	block    map[string]debug.BlockKey   // passage id -> block
	passages map[debug.BlockKey][]string // block -> passage ids, in order
	order    map[string]int              // passage id -> position in the memory
	lex      memory.Lexical
	files    map[string][]*kg.Entity // base name -> file entities
}

func newIndex(ctx context.Context, mem *memory.Memory, t *session.Thread, thread int, build memory.IndexFunc) (*index, error) {
	byRef := map[string]*session.Entry{}
	for _, e := range t.Entries {
		byRef[code.EntryRef(e)] = e
	}
	ix := &index{mem: mem, block: map[string]debug.BlockKey{}, passages: map[debug.BlockKey][]string{},
		order: map[string]int{}, files: map[string][]*kg.Entity{}}
	var docs []memory.Doc
	for i, p := range mem.Passages {
		ref, ok := code.ParseRef(p.ID)
		if !ok || ref.Thread != thread || byRef[ref.Entry] == nil {
			continue
		}
		key := debug.BlockKey{Entry: byRef[ref.Entry], Block: ref.Block}
		ix.block[p.ID] = key
		ix.passages[key] = append(ix.passages[key], p.ID)
		ix.order[p.ID] = i
		docs = append(docs, memory.Doc{ID: p.ID, Text: p.Text})
	}
	lex, err := build(ctx, docs)
	if err != nil {
		return nil, fmt.Errorf("recall: index: %w", err)
	}
	ix.lex = lex
	for _, e := range mem.Graph.Entities() {
		if e.Type == code.TypeFile {
			base := e.Name[strings.LastIndexByte(e.Name, '/')+1:]
			ix.files[base] = append(ix.files[base], e)
		}
	}
	return ix, nil
}

// query is the text of the recent messages' blocks as the memory holds
// them: what the user said (its first userChars characters), then the
// latest callChars characters of what the agent said and the calls it
// made since.
func (ix *index) query(recent []*session.Entry) string {
	const userChars, callChars = 1000, 3000
	var user, agent []string
	for _, e := range recent {
		for b := range e.Message.Blocks {
			for _, id := range ix.passages[debug.BlockKey{Entry: e, Block: b}] {
				if p, ok := ix.mem.Passage(id); !ok {
					continue
				} else if e.Message.Role == session.RoleAssistant {
					agent = append(agent, p.Text)
				} else {
					user = append(user, p.Text)
				}
			}
		}
	}
	u, a := strings.Join(user, "\n"), strings.Join(agent, "\n")
	if len(u) > userChars {
		u = u[:userChars]
	}
	if len(a) > callChars {
		a = a[len(a)-callChars:] // the end: the latest of what was said and done
	}
	return strings.TrimSpace(u + "\n" + a)
}

// lexical ranks the evicted passages by BM25 against the query.
func (ix *index) lexical(q string, gone func(string) bool) ([]string, error) {
	if strings.TrimSpace(q) == "" {
		return nil, nil
	}
	hits, err := ix.lex.Search(q, len(ix.block))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, h := range hits {
		if gone(h.ID) {
			out = append(out, h.ID)
		}
	}
	return out, nil
}
