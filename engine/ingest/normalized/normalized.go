// Package normalized writes and reads ctxscope's normalized JSON Lines: any
// imported session written back out in the shape of [session], so that
// other tools can read what ctxscope read, whatever the source format. The
// schema is documented in docs/normalized-jsonl.md.
//
// A file holds one or more sessions. Each starts with a session record;
// then come its threads, each followed by its entries in thread order, and
// last its diagnostics. Every record is one line:
//
//	{"type":"session","schema":"ctxscope.normalized/1","id":...}
//	{"type":"thread","id":"main","kind":"main"}
//	{"type":"entry","thread":"main","entry":{"id":...,"kind":"message","message":{...}}}
//	{"type":"diagnostic","file":...,"line":3,"severity":"error","message":...}
package normalized

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"ctxscope/engine/session"
)

// Schema names the version of the format, in every session record.
const Schema = "ctxscope.normalized/1"

// Record types.
const (
	typeSession    = "session"
	typeThread     = "thread"
	typeEntry      = "entry"
	typeDiagnostic = "diagnostic"
)

// sessionRecord is a session's header line.
type sessionRecord struct {
	Type    string         `json:"type"`
	Schema  string         `json:"schema"`
	ID      string         `json:"id"`
	Format  session.Format `json:"format"`
	Version int            `json:"version"`
	Agent   string         `json:"agent"`
	Source  string         `json:"source"`
	Size    int64          `json:"size,omitempty"` // the session's share of its source, when it has several
	// Recorded is the totals the agent recorded for the session.
	Recorded *session.Recorded `json:"recorded,omitempty"`
	Title    string            `json:"title"`
	CWD      string            `json:"cwd"`
	Started  time.Time         `json:"started"`
}

// threadRecord is a thread's header line.
type threadRecord struct {
	Type     string             `json:"type"`
	ID       string             `json:"id"`
	Kind     session.ThreadKind `json:"kind"`
	ParentID string             `json:"parentId,omitempty"`
	Title    string             `json:"title,omitempty"`
	LeafID   string             `json:"leafId,omitempty"`
}

// entryRecord is one entry, with the thread it belongs to. The entry is
// nested because it has a "type" of its own: the source's record type.
type entryRecord struct {
	Type   string         `json:"type"`
	Thread string         `json:"thread"`
	Entry  *session.Entry `json:"entry"`
}

// diagnosticRecord is one diagnostic.
type diagnosticRecord struct {
	Type string `json:"type"`
	session.Diagnostic
}

// Write writes sessions as normalized JSON Lines to w.
func Write(w io.Writer, sessions ...*session.Session) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, s := range sessions {
		if err := writeSession(enc, s); err != nil {
			return fmt.Errorf("export session %s: %w", s.ID, err)
		}
	}
	return bw.Flush()
}

func writeSession(enc *json.Encoder, s *session.Session) error {
	err := enc.Encode(sessionRecord{Type: typeSession, Schema: Schema, ID: s.ID, Format: s.Format, Version: s.Version,
		Agent: s.Agent, Source: s.Source, Size: s.Size, Recorded: s.Recorded, Title: s.Title, CWD: s.CWD, Started: s.Started})
	if err != nil {
		return err
	}
	for _, t := range s.Threads {
		err := enc.Encode(threadRecord{Type: typeThread, ID: t.ID, Kind: t.Kind, ParentID: t.ParentID, Title: t.Title, LeafID: t.LeafID})
		if err != nil {
			return err
		}
		for _, e := range t.Entries {
			if err := enc.Encode(entryRecord{Type: typeEntry, Thread: t.ID, Entry: e}); err != nil {
				return fmt.Errorf("entry %s (line %d): %w", e.ID, e.Line, err)
			}
		}
	}
	for _, d := range s.Diagnostics {
		if err := enc.Encode(diagnosticRecord{Type: typeDiagnostic, Diagnostic: d}); err != nil {
			return err
		}
	}
	return nil
}
