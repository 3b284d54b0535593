package otlp

import (
	"math"

	"ctxscope/engine/session"
)

// fills places, after each tool call that no model call sent a result
// for, the result its execute_tool span recorded, in an entry of its own
// right after the call's message. Whether a call is answered can change
// as later spans come (the next call sends the result, or the tool's span
// arrives after the call), so fills keeps the entries it last returned and
// redoes them only from the first call whose fill changed: the work of a
// finish is in proportion to what the new spans touch, not to the
// conversation.
type fills struct {
	results  map[string]*span // execute_tool spans by call id
	answered map[string]bool  // the call ids some message holds a result of
	callAt   map[string]int   // the raw entry that first holds a call, by id
	// entries are those the last fill returned; at[i] is the position
	// of raw entry i among them; done is how many raw entries it saw.
	entries []*session.Entry
	at      []int
	done    int
	// changed is the first raw entry before done whose fill may differ
	// from the one entries hold (math.MaxInt for none).
	changed int
}

func newFills() fills {
	return fills{results: map[string]*span{}, answered: map[string]bool{}, callAt: map[string]int{}, changed: math.MaxInt}
}

// message notes the calls and results of raw entry i, m its message.
func (f *fills) message(i int, m *session.Message) {
	for _, blk := range m.Blocks {
		switch blk.Type {
		case session.BlockToolResult:
			if !f.answered[blk.ToolCallID] {
				f.answered[blk.ToolCallID] = true
				f.touch(blk.ToolCallID)
			}
		case session.BlockToolCall:
			if _, ok := f.callAt[blk.ToolCallID]; !ok {
				f.callAt[blk.ToolCallID] = i
			}
		}
	}
}

// toolRun notes the execute_tool span of call id.
func (f *fills) toolRun(id string, sp *span) {
	f.results[id] = sp
	f.touch(id)
}

// touch marks the fill of the entry that holds call id as changed.
func (f *fills) touch(id string) {
	if i, ok := f.callAt[id]; ok && i < f.done {
		f.changed = min(f.changed, i)
	}
}

// fill returns the entries of raw with the tool results filled in, and
// how many leading entries are those it returned last time. Parents
// follow the order the entries now have.
func (f *fills) fill(raw []*session.Entry) ([]*session.Entry, int) {
	out, from, kept := f.entries, f.done, len(f.entries)
	if f.changed < f.done {
		// Keep the changed entry itself; redo its fill and what follows.
		kept = f.at[f.changed] + 1
		out = f.appendFill(out[:kept], raw, f.changed)
		from = f.changed + 1
	}
	f.at = f.at[:from]
	for i := from; i < len(raw); i++ {
		f.at = append(f.at, len(out))
		out = append(out, raw[i])
		out = f.appendFill(out, raw, i)
	}
	for i := max(kept, 1); i < len(out); i++ {
		out[i].ParentID = out[i-1].ID
	}
	f.entries, f.done, f.changed = out, len(raw), math.MaxInt
	return out, kept
}

// appendFill appends to out the entry of the results that raw entry i's
// calls have only from their execute_tool spans, if any.
func (f *fills) appendFill(out, raw []*session.Entry, i int) []*session.Entry {
	e := raw[i]
	var results []session.Block
	var first *span
	for _, blk := range e.Message.Blocks {
		id := blk.ToolCallID
		if blk.Type != session.BlockToolCall || f.answered[id] || f.callAt[id] != i {
			continue
		}
		sp := f.results[id]
		if sp == nil {
			continue
		}
		if _, ok := sp.attrs[attrToolResult]; !ok {
			continue
		}
		if containsResult(results, id) {
			continue // the same call twice in one message: filled once
		}
		if first == nil {
			first = sp
		}
		results = append(results, session.Block{Type: session.BlockToolResult, ToolCallID: id, ToolName: blk.ToolName,
			IsError: attrString(sp.attrs, attrErrorType) != "", Content: []session.Block{{Type: session.BlockText, Text: attrString(sp.attrs, attrToolResult)}}})
	}
	if first == nil {
		return out
	}
	return append(out, &session.Entry{ID: first.id + "/result", ParentID: e.ID, Line: first.line, Time: first.end, Kind: session.EntryMessage,
		Type: first.name, Message: &session.Message{Role: session.RoleTool, Blocks: results, Time: first.end}})
}

func containsResult(bs []session.Block, id string) bool {
	for _, b := range bs {
		if b.ToolCallID == id {
			return true
		}
	}
	return false
}
