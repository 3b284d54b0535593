package recipe

import (
	"context"
	"fmt"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/code"
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/session"
)

// Source is what one memory is built from.
type Source struct {
	ID   string
	From memory.Origin
	// Passages are the turns or messages the memory remembers.
	Passages []memory.Passage
	// read is the memory of an agent session, read from its tool use by
	// package code rather than built by an extractor.
	read *memory.Memory
}

// LoCoMo is the source of conversation sample of the LoCoMo file at path.
func LoCoMo(c *locomo.Conversation, path string, sample int) Source {
	return Source{ID: c.ID, From: memory.Origin{Kind: "locomo", Path: path, Sample: sample}, Passages: c.Passages()}
}

// Session is the source of an agent session: its memory is read from its
// messages and tool use (package code), named "session-" + id. from says
// where it came from (a file, or a session of the workspace).
func Session(id string, s *session.Session, from memory.Origin) (Source, error) {
	m := code.ReadSession("session-"+id, s, nil)
	if len(m.Passages) == 0 {
		return Source{}, fmt.Errorf("session %q has no messages to remember", id)
	}
	from.Kind = "session"
	return Source{ID: m.ID, From: from, Passages: m.Passages, read: m}, nil
}

// Build returns the memory of src: a session's as read, a conversation's
// built by b. Its origin is src's.
func (src Source) Build(ctx context.Context, b *memory.Builder) (*memory.Memory, error) {
	m := src.read
	if m == nil {
		var err error
		if m, err = b.Build(ctx, src.ID, src.Passages); err != nil {
			return nil, err
		}
	}
	m.From = src.From
	return m, nil
}
