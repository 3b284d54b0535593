package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"ctxscope/engine/ingest/internal/jsondoc"
	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// Importer reads chat-completions conversations. The zero value is ready
// to use.
type Importer struct{}

// Format returns [session.FormatOpenAIChat].
func (Importer) Format() session.Format { return session.FormatOpenAIChat }

// Sniff reports whether head looks like chat messages: JSON that names a
// role next to content, or tau-bench runs with a traj.
func (Importer) Sniff(head []byte) bool {
	head = bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	if len(head) == 0 || (head[0] != '[' && head[0] != '{') {
		return false
	}
	if bytes.Contains(head, []byte(`"traj"`)) && bytes.Contains(head, []byte(`"task_id"`)) {
		return true
	}
	return bytes.Contains(head, []byte(`"role"`)) && bytes.Contains(head, []byte(`"content"`))
}

// Import returns the first conversation of r.
func (im Importer) Import(r io.Reader, name string) (*session.Session, error) {
	return norm.First(func(emit func(*session.Session) error) error { return im.ImportEach(r, name, emit) }, name, "conversation")
}

// ImportEach reads every conversation of r, in file order.
func (Importer) ImportEach(r io.Reader, name string, emit func(*session.Session) error) error {
	rd := &reader{file: name, emit: emit}
	var stop error
	err := jsondoc.Values(r, func(d *jsondoc.Doc) error {
		if stop != nil {
			return jsondoc.Skip(d)
		}
		err := rd.value(d)
		var e emitError
		if errors.As(err, &e) {
			stop = e.err
			return nil
		}
		return err
	}, rd.bad)
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	if stop != nil {
		return stop
	}
	return rd.flush()
}

// emitError carries an error of the caller's emit function out of the
// reading loop.
type emitError struct{ err error }

// Error returns the caller's error message.
func (e emitError) Error() string { return e.err.Error() }

// reader turns top-level values into sessions.
type reader struct {
	file  string
	emit  func(*session.Session) error
	n     int              // conversations started
	loose *session.Session // a conversation of bare messages being read
	// orphan collects problems found before any conversation started.
	orphan []session.Diagnostic
}

func (rd *reader) bad(line int, err error) {
	d := session.Diagnostic{File: rd.file, Line: line, Severity: session.SeverityError, Message: norm.JSONError(err)}
	if rd.loose != nil {
		rd.loose.Diagnostics = append(rd.loose.Diagnostics, d)
		return
	}
	rd.orphan = append(rd.orphan, d)
}

// newSession starts a conversation; problems found so far go with it.
func (rd *reader) newSession(line int) *session.Session {
	rd.n++
	t := &session.Thread{ID: "main", Kind: session.ThreadMain}
	s := &session.Session{ID: norm.BaseID(rd.file) + "#" + strconv.Itoa(rd.n), Format: session.FormatOpenAIChat,
		Agent: "openai-chat", Source: rd.file, Threads: []*session.Thread{t}, Diagnostics: rd.orphan}
	rd.orphan = nil
	return s
}

func (rd *reader) finish(s *session.Session) error {
	norm.Finish(s)
	if err := rd.emit(s); err != nil {
		return emitError{err}
	}
	return nil
}

// flush emits the conversation of bare messages, if one is open, or an
// empty session carrying problems no conversation took.
func (rd *reader) flush() error {
	if rd.loose != nil {
		s := rd.loose
		rd.loose = nil
		if err := rd.finish(s); err != nil {
			return err.(emitError).err
		}
		return nil
	}
	if len(rd.orphan) > 0 {
		s := rd.newSession(0)
		s.Diagnostics = append(s.Diagnostics, rd.orphan...)
		rd.orphan = nil
		if err := rd.finish(s); err != nil {
			return err.(emitError).err
		}
	}
	return nil
}

// value reads one top-level value: an array (of messages or of
// conversations) or an object (a conversation).
func (rd *reader) value(d *jsondoc.Doc) error {
	line := d.Line()
	delim, err := d.Open()
	if err != nil {
		return err
	}
	if delim == '{' {
		return rd.conversation(d, line)
	}
	err = d.Elements(func(i int) error {
		raw, line, err := d.Raw()
		if err != nil {
			return err
		}
		return rd.element(raw, line)
	})
	if err != nil {
		return err
	}
	// A top-level array of messages is one conversation.
	if err := rd.flush(); err != nil {
		return emitError{err}
	}
	return nil
}

// element handles one element of a top-level array: a message of a bare
// conversation, or a conversation object.
func (rd *reader) element(raw json.RawMessage, line int) error {
	var probe struct {
		Role     *string         `json:"role"`
		Traj     json.RawMessage `json:"traj"`
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		rd.bad(line, err)
		return nil
	}
	if probe.Role != nil {
		if rd.loose == nil {
			rd.loose = rd.newSession(line)
		}
		addMessage(rd.loose, rd.file, raw, line)
		return nil
	}
	if err := rd.flush(); err != nil {
		return emitError{err}
	}
	d := jsondoc.New(bytes.NewReader(raw))
	d.SetFirstLine(line)
	if _, err := d.Open(); err != nil {
		return err
	}
	return rd.conversation(d, line)
}

// conversation reads an object whose opening brace was read: a run with
// traj, or an object with messages, streaming the messages.
func (rd *reader) conversation(d *jsondoc.Doc, line int) error {
	if err := rd.flush(); err != nil {
		return emitError{err}
	}
	s := rd.newSession(line)
	var meta []string
	err := d.Members(func(key string) error {
		switch key {
		case "traj", "messages":
			return d.Array(func(int) error {
				raw, line, err := d.Raw()
				if err != nil {
					return err
				}
				addMessage(s, rd.file, raw, line)
				return nil
			})
		case "task_id", "trial", "reward", "id":
			var v json.RawMessage
			if err := d.Decode(&v); err != nil {
				return err
			}
			meta = append(meta, key+" "+strings.Trim(string(v), `"`))
			return nil
		}
		return d.Skip()
	})
	if err != nil {
		s.Diagnostics = append(s.Diagnostics, session.Diagnostic{File: rd.file, Line: d.Line(), Severity: session.SeverityError, Message: norm.JSONError(err) + "; the rest of the conversation was not read"})
	}
	if len(meta) > 0 {
		s.Title = strings.Join(meta, ", ")
	}
	if len(s.Main().Entries) == 0 && err == nil {
		norm.Diag(s, rd.file, line, session.SeverityWarning, "an object without messages or traj")
	}
	return rd.finish(s)
}

// addMessage appends one message to a conversation's main thread.
func addMessage(s *session.Session, file string, raw json.RawMessage, line int) {
	m, err := Message(raw)
	if err != nil {
		norm.Diag(s, file, line, session.SeverityError, "%v; skipped", err)
		return
	}
	t := s.Main()
	e := &session.Entry{ID: "m" + strconv.Itoa(len(t.Entries)), Line: line, Kind: session.EntryMessage, Type: "message", Message: m}
	if k := len(t.Entries); k > 0 {
		e.ParentID = t.Entries[k-1].ID
	}
	t.Entries = append(t.Entries, e)
}
