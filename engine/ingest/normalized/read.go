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
	rd := &reader{name: name, emit: emit}
	lr := jsonl.NewReader(r, 0)
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, jsonl.ErrTooLong) {
			rd.bad(lr.Line(), "record skipped: the line is longer than %d bytes", jsonl.DefaultMaxRecord)
			continue
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", name, err)
		}
		if err := rd.line(line, lr.Line()); err != nil {
			return err
		}
	}
	return rd.end()
}

// reader assembles sessions from records.
type reader struct {
	name    string
	emit    func(*session.Session) error
	cur     *session.Session
	threads map[string]*session.Thread
	// orphan holds problems found before the first session record.
	orphan []session.Diagnostic
}

func (rd *reader) bad(n int, format string, args ...any) {
	d := session.Diagnostic{File: rd.name, Line: n, Severity: session.SeverityError, Message: fmt.Sprintf(format, args...)}
	if rd.cur == nil {
		rd.orphan = append(rd.orphan, d)
		return
	}
	rd.cur.Diagnostics = append(rd.cur.Diagnostics, d)
}

// line handles one record; only an error of emit is returned.
func (rd *reader) line(line []byte, n int) error {
	var probe struct {
		Type   string `json:"type"`
		Thread string `json:"thread"`
	}
	if err := json.Unmarshal(line, &probe); err != nil {
		rd.bad(n, "line skipped: %s", norm.JSONError(err))
		return nil
	}
	switch {
	case probe.Type == typeSession:
		if rd.cur != nil {
			if err := rd.emit(rd.cur); err != nil {
				return err
			}
		}
		rd.cur, rd.threads = readSession(line, rd.name, n), map[string]*session.Thread{}
		rd.cur.Diagnostics = append(rd.orphan, rd.cur.Diagnostics...)
		rd.orphan = nil
	case rd.cur == nil:
		rd.bad(n, "a %q record before any session record; skipped", probe.Type)
	default:
		if err := readRecord(rd.cur, rd.threads, probe.Type, probe.Thread, line); err != nil {
			rd.bad(n, "%v; skipped", err)
		}
	}
	return nil
}

// end emits the last session, or one that carries the problems of a file
// without any session record.
func (rd *reader) end() error {
	if rd.cur == nil {
		if len(rd.orphan) == 0 {
			return nil
		}
		rd.cur = &session.Session{ID: norm.BaseID(rd.name), Format: session.FormatNormalized, Source: rd.name, Diagnostics: rd.orphan}
	}
	return rd.emit(rd.cur)
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
		Size: rec.Size, Recorded: rec.Recorded, Title: rec.Title, CWD: rec.CWD, Started: rec.Started}
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
