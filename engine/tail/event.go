package tail

import (
	"ctxscope/engine/session"
)

// EventKind tells what an [Event] reports.
type EventKind string

// Event kinds.
const (
	// EventOpened: a file is followed from now on; Session describes it.
	EventOpened EventKind = "opened"
	// EventEntry: an entry was added, or (Merged) an entry already
	// reported gained content; Entry is a copy of it.
	EventEntry EventKind = "entry"
	// EventDiagnostic: the file has a problem at Diagnostic's location.
	EventDiagnostic EventKind = "diagnostic"
	// EventReset: the file was truncated, replaced or rotated; the session
	// starts again from its first record, and earlier entries of this
	// path no longer describe the file.
	EventReset EventKind = "reset"
	// EventError: the file cannot be followed (Err says why), or the
	// watcher itself hit an error.
	EventError EventKind = "error"
)

// Event is one thing a [Reader] or [Watcher] saw.
type Event struct {
	Kind EventKind `json:"kind"`
	Path string    `json:"path"`
	// Session is a copy of the session's header (no threads, no
	// diagnostics), on opened and reset events.
	Session *session.Session `json:"session,omitempty"`
	// Thread identifies the thread of an entry event.
	Thread     string             `json:"thread,omitempty"`
	ThreadKind session.ThreadKind `json:"threadKind,omitempty"`
	ParentID   string             `json:"threadParent,omitempty"`
	// Entry is a copy of the new or changed entry.
	Entry      *session.Entry      `json:"entry,omitempty"`
	Merged     bool                `json:"merged,omitempty"`
	Diagnostic *session.Diagnostic `json:"diagnostic,omitempty"`
	Err        error               `json:"-"`
	// Offset is how many bytes of the file had been consumed when the
	// event was made.
	Offset int64 `json:"offset"`
}

// snapshotSession copies a session's header.
func snapshotSession(s *session.Session) *session.Session {
	c := *s
	c.Threads, c.Diagnostics = nil, nil
	return &c
}

// snapshotEntry copies an entry deeply enough that later decoding, which
// may append blocks to its message or change its usage, cannot change the
// copy.
func snapshotEntry(e *session.Entry) *session.Entry {
	c := *e
	if e.Message != nil {
		m := *e.Message
		m.Blocks = append([]session.Block(nil), e.Message.Blocks...)
		if e.Message.Usage != nil {
			u := *e.Message.Usage
			m.Usage = &u
		}
		c.Message = &m
	}
	if e.Compaction != nil {
		cp := *e.Compaction
		c.Compaction = &cp
	}
	return &c
}
