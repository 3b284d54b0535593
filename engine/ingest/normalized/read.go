package normalized

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/session"
)

// Importer reads normalized JSON Lines back. The zero value is ready to
// use. Sessions keep the format they were first imported from.
type Importer struct{}

// Format returns [session.FormatNormalized].
func (Importer) Format() session.Format { return session.FormatNormalized }

// Sniff reports whether head starts with a normalized session record.
func (Importer) Sniff(head []byte) bool {
	vals := jsonl.FirstValues(head, 1)
	if len(vals) == 0 {
		return false
	}
	var rec struct {
		Type   string `json:"type"`
		Schema string `json:"schema"`
	}
	return json.Unmarshal(vals[0], &rec) == nil && rec.Type == typeSession && rec.Schema == Schema
}

// Import returns the first session of r.
func (im Importer) Import(r io.Reader, name string) (*session.Session, error) {
	return norm.First(func(emit func(*session.Session) error) error { return im.ImportEach(r, name, emit) }, name, "session record")
}

// ImportEach reads every session of r.
func (Importer) ImportEach(r io.Reader, name string, emit func(*session.Session) error) error {
	lr := jsonl.NewReader(r, 0)
	var cur *session.Session
	threads := map[string]*session.Thread{}
	var orphan []session.Diagnostic
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, jsonl.ErrTooLong) {
			return fmt.Errorf("read %s: %w", name, err)
		}
		n := lr.Line()
		bad := func(format string, args ...any) {
			d := session.Diagnostic{File: name, Line: n, Severity: session.SeverityError, Message: fmt.Sprintf(format, args...)}
			if cur == nil {
				orphan = append(orphan, d)
			} else {
				cur.Diagnostics = append(cur.Diagnostics, d)
			}
		}
		if err != nil {
			bad("record skipped: the line is longer than %d bytes", jsonl.DefaultMaxRecord)
			continue
		}
		var probe struct {
			Type   string `json:"type"`
			Thread string `json:"thread"`
		}
		if err := json.Unmarshal(line, &probe); err != nil {
			bad("line skipped: %s", norm.JSONError(err))
			continue
		}
		if probe.Type == typeSession {
			if cur != nil {
				if err := emit(cur); err != nil {
					return err
				}
			}
			cur, threads = readSession(line, name, n), map[string]*session.Thread{}
			cur.Diagnostics = append(orphan, cur.Diagnostics...)
			orphan = nil
			continue
		}
		if cur == nil {
			bad("a %q record before any session record; skipped", probe.Type)
			continue
		}
		if err := readRecord(cur, threads, probe.Type, probe.Thread, line); err != nil {
			bad("%v; skipped", err)
		}
	}
	if cur == nil {
		if len(orphan) == 0 {
			return nil
		}
		cur = &session.Session{ID: norm.BaseID(name), Format: session.FormatNormalized, Source: name, Diagnostics: orphan}
	}
	return emit(cur)
}

func readSession(line []byte, name string, n int) *session.Session {
	var rec sessionRecord
	s := &session.Session{}
	if err := json.Unmarshal(line, &rec); err != nil {
		s.ID, s.Format, s.Source = norm.BaseID(name), session.FormatNormalized, name
		norm.Diag(s, name, n, session.SeverityError, "session record: %s", norm.JSONError(err))
		return s
	}
	*s = session.Session{ID: rec.ID, Format: rec.Format, Version: rec.Version, Agent: rec.Agent, Source: rec.Source,
		Title: rec.Title, CWD: rec.CWD, Started: rec.Started}
	return s
}

// readRecord adds a thread, entry or diagnostic record to s.
func readRecord(s *session.Session, threads map[string]*session.Thread, typ, thread string, line []byte) error {
	switch typ {
	case typeThread:
		var rec threadRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			return fmt.Errorf("thread record: %s", norm.JSONError(err))
		}
		t := &session.Thread{ID: rec.ID, Kind: rec.Kind, ParentID: rec.ParentID, Title: rec.Title, LeafID: rec.LeafID}
		threads[t.ID] = t
		s.Threads = append(s.Threads, t)
	case typeEntry:
		t := threads[thread]
		if t == nil {
			return fmt.Errorf("entry of unknown thread %q", thread)
		}
		e := &session.Entry{}
		if err := json.Unmarshal(line, &entryRecord{Entry: e}); err != nil {
			return fmt.Errorf("entry record: %s", norm.JSONError(err))
		}
		t.Entries = append(t.Entries, e)
	case typeDiagnostic:
		var d session.Diagnostic
		if err := json.Unmarshal(line, &d); err != nil {
			return fmt.Errorf("diagnostic record: %s", norm.JSONError(err))
		}
		s.Diagnostics = append(s.Diagnostics, d)
	default:
		return fmt.Errorf("unknown record type %q", bytes.TrimSpace([]byte(typ)))
	}
	return nil
}
