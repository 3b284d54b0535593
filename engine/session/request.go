package session

import "sort"

// A Context is a list of messages that consecutive requests share: each
// request's input is a prefix of it. Sharing keeps the reconstruction of n
// requests over a history of n messages linear in size rather than
// quadratic.
type Context struct {
	Messages []*Message
	// Entries holds the source entry of each message. For the summary that
	// stands in for compacted history it is the compaction entry.
	Entries []*Entry
}

// Request is one LLM request: the assistant message that answered it and
// the input it was given.
type Request struct {
	Index   int     // position among the thread's requests, in source order
	Thread  *Thread // the thread the request belongs to
	Entry   *Entry  // the assistant entry that holds the response
	Context *Context
	Len     int // the input is Context.Messages[:Len]
	// AfterCompaction marks the first request after the source agent
	// compacted its context.
	AfterCompaction bool
}

// Input returns the messages of the request's input, in order.
func (r *Request) Input() []*Message { return r.Context.Messages[:r.Len] }

// InputEntries returns the source entries of the request's input.
func (r *Request) InputEntries() []*Entry { return r.Context.Entries[:r.Len] }

// BuildRequests reconstructs every LLM request of a thread, one per
// assistant message (but echoes, [OriginEcho]), ordered by source line. The input of a request is the
// path from the root to the assistant message's parent, with these rules:
//   - message entries contribute their message unless it is Excluded;
//   - a compaction entry replaces the context with a summary message
//     followed by the messages from the compaction's FirstKeptID on;
//   - other entries contribute nothing.
//
// Every branch of a tree is walked, so requests on abandoned branches are
// included too. The cost is linear in the number of entries plus the sizes
// of the contexts that branches force to be copied.
func BuildRequests(t *Thread) []*Request {
	tr := NewTree(t)
	var reqs []*Request
	type frame struct {
		entry     int
		ctx       *Context
		n         int
		compacted bool
	}
	var stack []frame
	roots := tr.Roots()
	for k := len(roots) - 1; k >= 0; k-- {
		stack = append(stack, frame{entry: roots[k], ctx: &Context{}})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		e := t.Entries[f.entry]
		ctx, n, compacted := f.ctx, f.n, f.compacted
		switch {
		case e.Kind == EntryMessage && e.Message != nil && !e.Message.Excluded:
			if e.Message.Role == RoleAssistant && e.Message.Origin != OriginEcho {
				reqs = append(reqs, &Request{Thread: t, Entry: e, Context: ctx, Len: n, AfterCompaction: compacted})
				compacted = false
			}
			ctx = extend(ctx, n, e.Message, e)
			n++
		case e.Kind == EntryCompaction && e.Compaction != nil:
			ctx = compact(ctx, n, e)
			n = len(ctx.Messages)
			compacted = true
		}
		kids := tr.Children(f.entry)
		for k := len(kids) - 1; k >= 0; k-- {
			stack = append(stack, frame{entry: kids[k], ctx: ctx, n: n, compacted: compacted})
		}
	}
	sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].Entry.Line < reqs[j].Entry.Line })
	for i, r := range reqs {
		r.Index = i
	}
	return reqs
}

// extend appends m to the first n messages of ctx, sharing ctx when nothing
// else has been appended at position n yet and copying it otherwise.
func extend(ctx *Context, n int, m *Message, e *Entry) *Context {
	if len(ctx.Messages) != n {
		c := &Context{
			Messages: append(make([]*Message, 0, n+16), ctx.Messages[:n]...),
			Entries:  append(make([]*Entry, 0, n+16), ctx.Entries[:n]...),
		}
		ctx = c
	}
	ctx.Messages = append(ctx.Messages, m)
	ctx.Entries = append(ctx.Entries, e)
	return ctx
}

// compact returns a new context that holds the compaction's summary and the
// messages of ctx[:n] from the first kept entry on.
func compact(ctx *Context, n int, e *Entry) *Context {
	keepFrom := n
	if id := e.Compaction.FirstKeptID; id != "" {
		for i := n - 1; i >= 0; i-- {
			if ctx.Entries[i].ID == id {
				keepFrom = i
				break
			}
		}
	}
	c := &Context{}
	if e.Compaction.Summary != "" {
		sum := &Message{
			Role:   RoleUser,
			Origin: OriginCompactionSummary,
			Blocks: []Block{{Type: BlockText, Text: e.Compaction.Summary}},
			Time:   e.Time,
		}
		c.Messages = append(c.Messages, sum)
		c.Entries = append(c.Entries, e)
	}
	c.Messages = append(c.Messages, ctx.Messages[keepFrom:n]...)
	c.Entries = append(c.Entries, ctx.Entries[keepFrom:n]...)
	return c
}
