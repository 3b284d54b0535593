package openhands

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"ctxscope/engine/ingest/internal/jsondoc"
	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

type timeT = time.Time

// Importer reads OpenHands trajectories and evaluation output. The zero
// value is ready to use.
type Importer struct{}

// Format returns [session.FormatOpenHands].
func (Importer) Format() session.Format { return session.FormatOpenHands }

// Sniff reports whether head looks like OpenHands events: JSON with the
// source and action or observation fields every event has.
func (Importer) Sniff(head []byte) bool {
	head = bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	if len(head) == 0 || (head[0] != '[' && head[0] != '{') {
		return false
	}
	return bytes.Contains(head, []byte(`"source"`)) &&
		(bytes.Contains(head, []byte(`"action"`)) || bytes.Contains(head, []byte(`"observation"`))) &&
		(bytes.Contains(head, []byte(`"history"`)) || head[0] == '[')
}

// Import returns the first trajectory of r.
func (im Importer) Import(r io.Reader, name string) (*session.Session, error) {
	return norm.First(func(emit func(*session.Session) error) error { return im.ImportEach(r, name, emit) }, name, "trajectory")
}

// errStop ends reading after emit failed.
var errStop = errors.New("stopped")

// ImportEach reads every trajectory of r: an event array, an object with
// a history, or one such object per line.
func (Importer) ImportEach(r io.Reader, name string, emit func(*session.Session) error) error {
	var emitErr error
	var orphan []session.Diagnostic
	n := 0
	finish := func(b *builder) error {
		b.s.Diagnostics = append(orphan, b.s.Diagnostics...)
		orphan = nil
		norm.Finish(b.s)
		if err := emit(b.s); err != nil {
			emitErr = err
			return errStop
		}
		return nil
	}
	err := jsondoc.Values(r, func(d *jsondoc.Doc) error {
		if emitErr != nil {
			return d.Skip()
		}
		n++
		b := newBuilder(name, norm.BaseID(name))
		if n > 1 {
			b.s.ID += "#" + strconv.Itoa(n)
		}
		readErr := readValue(d, b)
		if readErr != nil {
			norm.Diag(b.s, name, d.Line(), session.SeverityError, "%s; the rest of the value was not read", norm.JSONError(readErr))
		}
		if err := finish(b); err != nil || readErr == nil {
			return err
		}
		return errStop // the decoder cannot go on after a syntax error
	}, func(line int, err error) {
		if !errors.Is(err, errStop) { // already reported, or the caller's error
			orphan = append(orphan, session.Diagnostic{File: name, Line: line, Severity: session.SeverityError, Message: norm.JSONError(err)})
		}
	})
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	if emitErr != nil {
		return emitErr
	}
	if len(orphan) > 0 {
		return finish(newBuilder(name, norm.BaseID(name)))
	}
	return nil
}

// readValue reads an event array, or an object with a history and an
// instance_id, into b.
func readValue(d *jsondoc.Doc, b *builder) error {
	delim, err := d.Open()
	if err != nil {
		return err
	}
	events := func() error {
		return d.Elements(func(int) error {
			raw, line, err := d.Raw()
			if err != nil {
				return err
			}
			b.event(raw, line)
			return nil
		})
	}
	if delim == '[' {
		return events()
	}
	return d.Members(func(key string) error {
		switch key {
		case "history":
			if _, err := d.Open(); err != nil {
				return err
			}
			return events()
		case "instance_id":
			var id any
			if err := d.Decode(&id); err != nil {
				return err
			}
			b.s.ID = fmt.Sprint(id)
			b.s.Title = b.s.ID
			return nil
		}
		return d.Skip()
	})
}
