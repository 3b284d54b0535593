package recall

import (
	"cmp"
	"context"
	"sort"
	"strings"
	"unicode/utf8"

	"ctxscope/engine/debug"
	"ctxscope/engine/memory/code"
	"ctxscope/engine/session"
)

// Recalled is one passage a recall brought back: its text as the model
// receives it, and where eviction took it from.
type Recalled struct {
	ID      string `json:"id"`
	Text    string `json:"text"`
	Tokens  int    `json:"tokens"`
	Level   int    `json:"level"`
	Episode string `json:"episode,omitempty"`
}

// Ask recalls, for a query of the agent's own words, the passages that
// eviction had removed from the input of request k of life (a lifecycle
// of the indexed thread), most relevant first, within budget tokens
// (the index's recall budget when budget <= 0). The ranking is the one the
// look-back evaluation measures: the files the query names through the
// knowledge graph, then BM25.
func (x *Index) Ask(ctx context.Context, life *debug.Lifecycle, k int, query string, budget int) ([]Recalled, error) {
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	o := x.o
	if budget > 0 {
		o.Budget = budget
	}
	ix := x.ix
	gone := func(id string) bool { return life.Gone(ix.block[id], k) }
	lexical, err := ix.lexical(query, gone)
	if err != nil {
		return nil, err
	}
	packed := pack(ix.mem, append(ix.graph(query, gone), lexical...), nil, o)
	out := make([]Recalled, 0, len(packed.Passages))
	for _, id := range packed.Passages {
		p, _ := ix.mem.Passage(id)
		bl := life.Blocks[ix.block[id]]
		text := Render(p)
		out = append(out, Recalled{ID: id, Text: text, Tokens: countText(o.Counter, text), Level: bl.Level, Episode: bl.Episode})
	}
	return out, nil
}

// EvictedBlock is one block eviction had removed from the input of a
// request.
type EvictedBlock struct {
	// Entry is the block's entry id (the passages recalled from it are
	// named after it), and Block its index in the entry's message.
	Entry   string `json:"entry"`
	Block   int    `json:"block"`
	Kind    string `json:"kind"` // tool output, tool input, reasoning or text
	Tool    string `json:"tool,omitempty"`
	Level   int    `json:"level"`
	Episode string `json:"episode,omitempty"`
	// Request is the request at which it was evicted.
	Request int    `json:"request"`
	Tokens  int    `json:"tokens"`
	Preview string `json:"preview"`
}

// Status lists the blocks of the indexed thread that eviction had removed
// from the input of request k of life, in the thread's order.
func (x *Index) Status(life *debug.Lifecycle, k int) []EvictedBlock {
	type placed struct {
		EvictedBlock
		at int
	}
	var list []placed
	toolOf := map[string]string{} // a call's id -> its tool, for results that do not name it
	for key := range life.Blocks {
		if m := key.Entry.Message; m != nil {
			for _, b := range m.Blocks {
				if b.Type == session.BlockToolCall {
					toolOf[b.ToolCallID] = b.ToolName
				}
			}
		}
	}
	for key, bl := range life.Blocks {
		if !life.Gone(key, k) || key.Entry.Message == nil || key.Block >= len(key.Entry.Message.Blocks) {
			continue
		}
		b := &key.Entry.Message.Blocks[key.Block]
		text, kind, tool := b.Text, "text", b.ToolName
		switch b.Type {
		case session.BlockToolResult:
			text, kind = b.ResultText(), "tool output"
			tool = cmp.Or(b.ToolName, toolOf[b.ToolCallID])
		case session.BlockToolCall:
			text, kind = string(b.Arguments), "tool input"
		case session.BlockThinking:
			kind = "reasoning"
		}
		at := len(x.ix.order) // a block the memory holds no passage of goes last
		if ids := x.ix.passages[key]; len(ids) > 0 {
			at = x.ix.order[ids[0]]
		}
		list = append(list, placed{EvictedBlock{Entry: code.EntryRef(key.Entry), Block: key.Block, Kind: kind, Tool: tool,
			Level: bl.Level, Episode: bl.Episode, Request: bl.Evicted, Tokens: countText(x.o.Counter, text), Preview: preview(text)}, at})
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].at != list[j].at {
			return list[i].at < list[j].at
		}
		if list[i].Entry != list[j].Entry {
			return list[i].Entry < list[j].Entry
		}
		return list[i].Block < list[j].Block
	})
	out := make([]EvictedBlock, len(list))
	for i, p := range list {
		out[i] = p.EvictedBlock
	}
	return out
}

// preview is the first line of text, cut to 100 bytes on a rune boundary.
func preview(text string) string {
	text, _, _ = strings.Cut(strings.TrimSpace(text), "\n")
	if len(text) <= 100 {
		return text
	}
	cut := 100
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + "…"
}
