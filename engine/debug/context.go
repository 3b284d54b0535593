package debug

import (
	"fmt"
	"math"
	"slices"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
)

// Block states in a [Context].
const (
	StateKept     = "kept"     // in the input
	StateStripped = "stripped" // the message is in the input without some of its blocks
	StateEvicted  = "evicted"  // not in the input
)

// Diff marks on a [Context]'s items.
const (
	DiffAdded   = "added"   // in this input, not in the previous one
	DiffChanged = "changed" // in both, with other blocks
	DiffRemoved = "removed" // in the previous input, not in this one
)

// BlockItem is one block of a message in a [Context].
type BlockItem struct {
	Type session.BlockType `json:"type"`
	// Section says what a text block is when its type and role do not: a
	// tool schema, or context the agent injected (see [session.Section]).
	Section session.Section `json:"section,omitempty"`
	Tool    string          `json:"tool,omitempty"`
	// Tokens is the block's share of the message's tokens.
	Tokens int `json:"tokens"`
	// Text is the block's text (see [BlockText]) cut to the preview size;
	// Size is the whole text's length in bytes.
	Text      string       `json:"text"`
	Size      int          `json:"size"`
	Truncated bool         `json:"truncated,omitempty"`
	IsError   bool         `json:"isError,omitempty"`
	State     string       `json:"state"`
	Removal   *cwl.Removal `json:"removal,omitempty"`
}

// Item is one message of the request's context, in the input or not.
type Item struct {
	I      int          `json:"i"`
	Role   session.Role `json:"role"`
	Origin string       `json:"origin,omitempty"`
	Line   int          `json:"line"`
	// Episode is the episode the message belongs to (an index into
	// Context.Episodes), -1 for the prologue and messages outside every
	// episode.
	Episode int          `json:"episode"`
	State   string       `json:"state"`
	Tokens  int          `json:"tokens"` // the whole message
	Kept    int          `json:"kept"`   // what of it is in the input
	Diff    string       `json:"diff,omitempty"`
	Removal *cwl.Removal `json:"removal,omitempty"`
	Blocks  []BlockItem  `json:"blocks"`
}

// EpisodeInfo is one episode of the request's context with its eviction
// level at the request.
type EpisodeInfo struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Inferred bool   `json:"inferred,omitempty"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	Open     bool   `json:"open"`
	Level    int    `json:"level"`
	Present  bool   `json:"present"` // started before the request
}

// Part is one line of a breakdown: tokens of the input by kind, by tool or
// by episode.
type Part struct {
	Group  string `json:"group"` // "kind", "tool", "episode", or "provider" for what the provider counted that the log does not hold
	Name   string `json:"name"`
	Tokens int    `json:"tokens"`
	// Full is the part's tokens with nothing evicted.
	Full int `json:"full"`
}

// DiffSummary is how the input differs from the previous request's.
type DiffSummary struct {
	TokensBefore int `json:"tokensBefore"`
	Added        int `json:"added"`
	Changed      int `json:"changed"`
	Removed      int `json:"removed"`
	// RemovedElsewhere counts removed messages of another context (the
	// previous request was on another branch, or before a compaction).
	RemovedElsewhere int `json:"removedElsewhere"`
}

// Context is the exact input of one request under a policy, with the
// whole context prefix it was cut from.
type Context struct {
	Request  int           `json:"request"`
	Context  int           `json:"ctx"`
	Tokens   int           `json:"tokens"`
	Before   int           `json:"before"`
	Summary  int           `json:"summary,omitempty"`
	Prologue int           `json:"prologue"`
	Items    []Item        `json:"items"`
	Episodes []EpisodeInfo `json:"episodes"`
	Parts    []Part        `json:"parts"`
	Diff     DiffSummary   `json:"diff"`
	// Evictions are those made while preparing this request.
	Evictions   []Mark `json:"evictions"`
	Unreachable string `json:"unreachable,omitempty"`
	// Provider compares the counts with the provider's.
	Provider ProviderView `json:"provider"`
}

// ProviderView is a request's input in the provider's tokens: what it
// reported for the recorded input, and the online calibration's estimate
// of the recorded input and of the input under the policy.
type ProviderView struct {
	// Reported is the recorded input as the provider reported it; 0 when
	// it did not.
	Reported int `json:"reported"`
	// Calibrated and CalibratedBefore are the policy's input and the
	// recorded input, calibrated from the requests before this one; 0
	// when there are none with usage (Basis 0).
	Calibrated       int `json:"calibrated"`
	CalibratedBefore int `json:"calibratedBefore"`
	// Unlogged is the calibration's overhead when positive: what the
	// provider counts that the log does not hold.
	Unlogged int `json:"unlogged"`
	// Overhead is the calibration's constant term, rounded: Calibrated is
	// Overhead + Ratio × the counted tokens. It is negative when the
	// counter counts a constant more than the provider (Unlogged is then
	// 0, and the categories of the timeline's split give it up in
	// proportion).
	Overhead int     `json:"overhead"`
	Ratio    float64 `json:"ratio"`
	Basis    int     `json:"basis"`
}

// Context explains request k under p: every message of its context prefix,
// the kept ones and the evicted ones with what removed them, breakdowns
// and the diff from request k−1. Block texts are cut to preview bytes.
func (r *Replay) Context(p Params, k, preview int) (*Context, error) {
	if k < 0 || k >= len(r.reqs) {
		return nil, fmt.Errorf("debug: request %d out of range [0, %d)", k, len(r.reqs))
	}
	o := r.runOptions(p)
	r.viewMu.Lock()
	rep := r.viewReplayer()
	x, prev, err := rep.ExplainWithPrevious(o, k)
	eps := rep.EpisodesOf(k)
	r.viewMu.Unlock()
	if err != nil {
		return nil, err
	}
	q := r.reqs[k]
	c := &Context{Request: k, Context: x.Context, Tokens: x.Tokens, Before: x.Point.Before, Summary: x.Summary,
		Prologue: eps.Prologue, Evictions: []Mark{}}
	for _, ev := range x.Point.Evictions {
		c.Evictions = append(c.Evictions, Mark{Request: k, Episode: ev.Episode, Name: episodeName(eps.List, ev.Episode, ev.Step), Level: ev.Level, Freed: ev.Freed, Step: ev.Step})
	}
	if u := x.Point.Unreachable; u != nil {
		c.Unreachable = u.Describe(eps.List)
	}
	c.Episodes = episodeInfos(eps, x.Levels, q.Len)
	c.Items = r.items(q, x, eps, preview)
	c.Diff = r.diff(k, c.Items, prev, x.Context)
	c.Parts = r.parts(q, c)
	c.Provider = r.provider(k, c.Tokens, c.Before)
	if c.Provider.Unlogged > 0 {
		c.Parts = append(c.Parts, Part{Group: "provider", Name: "unlogged: system prompt, tool schemas (estimated)", Tokens: c.Provider.Unlogged, Full: c.Provider.Unlogged})
	}
	return c, nil
}

// provider puts request k's input, tokens under the policy and before
// uncapped, in the provider's terms.
func (r *Replay) provider(k, tokens, before int) ProviderView {
	v := ProviderView{Reported: r.truth.reported[k]}
	s := r.truth.scales[k]
	if s.Basis > 0 {
		v.Calibrated, v.CalibratedBefore = s.Tokens(tokens), s.Tokens(before)
		v.Unlogged, v.Ratio, v.Basis = max(0, int(s.Overhead+0.5)), s.Ratio, s.Basis
		v.Overhead = int(math.Round(s.Overhead))
	}
	return v
}

func episodeInfos(eps *cwl.Episodes, levels []int, n int) []EpisodeInfo {
	out := make([]EpisodeInfo, 0, len(eps.List))
	for i, e := range eps.List {
		info := EpisodeInfo{ID: e.ID, Name: e.Name, Kind: e.Kind, Inferred: e.Inferred, Start: e.Start, End: min(e.End, n-1),
			Open: e.Open(n), Present: e.Start < n}
		if i < len(levels) {
			info.Level = levels[i]
		}
		out = append(out, info)
	}
	return out
}

// items lists every message of the request's context prefix.
func (r *Replay) items(q *session.Request, x *cwl.Explanation, eps *cwl.Episodes, preview int) []Item {
	epOf := make([]int, q.Len)
	for i := range epOf {
		epOf[i] = -1
	}
	for _, e := range eps.List {
		for i := e.Start; i <= e.End && i < q.Len; i++ {
			epOf[i] = e.ID
		}
	}
	kept := map[int]cwl.ViewEntry{}
	for _, v := range x.Messages {
		kept[v.I] = v
	}
	removed := map[[2]int]*cwl.Removal{}
	for i := range x.Removed {
		rm := &x.Removed[i]
		removed[[2]int{rm.Message, rm.Block}] = rm
	}
	names := toolNames(q.Input())
	items := make([]Item, q.Len)
	for i, m := range q.Input() {
		v, in := kept[i]
		it := Item{I: i, Role: m.Role, Origin: m.Origin, Episode: epOf[i], State: StateKept, Tokens: r.ledger.Message(m),
			Removal: removed[[2]int{i, -1}], Blocks: make([]BlockItem, len(m.Blocks))}
		if e := q.Context.Entries[i]; e != nil {
			it.Line = e.Line
		}
		keep := func(int) bool { return in }
		if in && v.Blocks != nil {
			it.State = StateStripped
			set := map[int]bool{}
			for _, b := range v.Blocks {
				set[b] = true
			}
			keep = func(b int) bool { return set[b] }
		} else if !in {
			it.State = StateEvicted
		}
		it.Kept = r.ledger.Kept(m, keep)
		units := r.ledger.Units(m)
		for b := range m.Blocks {
			it.Blocks[b] = r.blockItem(m, b, units[b], names, preview, keep(b), removed[[2]int{i, b}])
		}
		items[i] = it
	}
	return items
}

func (r *Replay) blockItem(m *session.Message, b, units int, names map[string]string, preview int, kept bool, rm *cwl.Removal) BlockItem {
	blk := &m.Blocks[b]
	full := BlockText(blk)
	text, cut := Preview(full, preview)
	bi := BlockItem{Type: blk.Type, Section: session.SectionOf(m, blk), Tool: blk.ToolName, Tokens: int(math.Round(r.ledger.Counter().Weight(units))), Text: text, Size: len(full),
		Truncated: cut, IsError: blk.IsError, State: StateKept, Removal: rm}
	if bi.Tool == "" && blk.Type == session.BlockToolResult {
		bi.Tool = names[blk.ToolCallID]
	}
	if !kept {
		bi.State = StateEvicted
	}
	return bi
}

// toolNames maps tool-call ids to tool names.
func toolNames(msgs []*session.Message) map[string]string {
	out := map[string]string{}
	for _, m := range msgs {
		for _, b := range m.ToolCalls() {
			out[b.ToolCallID] = b.ToolName
		}
	}
	return out
}

// diff marks the items that differ from request k−1's input, matching
// messages by identity as [cwl.Replayer.DiffAt] does.
func (r *Replay) diff(k int, items []Item, prev *cwl.ContextView, ctx int) DiffSummary {
	var d DiffSummary
	before := map[*session.Message]cwl.ViewEntry{}
	if prev != nil {
		d.TokensBefore = prev.Tokens
		pq := r.reqs[k-1]
		for _, v := range prev.Messages {
			before[pq.Context.Messages[v.I]] = v
		}
	}
	q := r.reqs[k]
	for i := range items {
		it := &items[i]
		m := q.Context.Messages[i]
		pv, was := before[m]
		delete(before, m)
		switch {
		case it.State == StateEvicted && was:
			it.Diff = DiffRemoved
			d.Removed++
		case it.State == StateEvicted:
		case !was:
			it.Diff = DiffAdded
			d.Added++
		case !sameBlocks(pv.Blocks, keptBlocks(it)):
			it.Diff = DiffChanged
			d.Changed++
		}
	}
	d.RemovedElsewhere = len(before)
	d.Removed += len(before)
	return d
}

// keptBlocks returns an item's kept block indices, nil when it is whole.
func keptBlocks(it *Item) []int {
	if it.State != StateStripped {
		return nil
	}
	out := []int{}
	for b, bl := range it.Blocks {
		if bl.State == StateKept {
			out = append(out, b)
		}
	}
	return out
}

// sameBlocks reports whether two block lists are equal; nil (the whole
// message) differs from every list, the empty one included.
func sameBlocks(a, b []int) bool { return (a == nil) == (b == nil) && slices.Equal(a, b) }
