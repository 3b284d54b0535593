package openhands

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
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

// Sniff reports whether head looks like OpenHands output, by its
// structure: an array of events (V0 events have a source and an action or
// observation, V1 events a kind and a source); an evaluation or resolver
// line, an object with an instance_id and a history of events; a 2024
// resolver line, an object with an issue, an instruction and a history of
// flat events; or JSON Lines of V1 events.
func (Importer) Sniff(head []byte) bool {
	sh := jsondoc.ReadShape(head, "history")
	if sh.Array {
		return isEvent(sh.ElementKeys)
	}
	if sh.Has("instance_id") && sh.Has("history", "instruction", "issue") && !sh.Has("trajectory", "trajectory_format") {
		return len(sh.ElementKeys) == 0 || isEvent(sh.ElementKeys)
	}
	// A resolver line of 2024 names no instance: its issue, the
	// instruction and a history of flat events, which have no source.
	if sh.Has("issue") && sh.Has("instruction") && sh.Has("history") && !sh.Has("trajectory", "trajectory_format", "messages") {
		return len(sh.ElementKeys) == 0 || isEvent(sh.ElementKeys) || isFlatEvent(sh.ElementKeys)
	}
	return sh.Has("kind") && sh.Has("source") && sh.Has("id") && sh.Has("timestamp")
}

// isEvent reports whether keys are those of an OpenHands event.
func isEvent(keys []string) bool {
	return slices.Contains(keys, "source") && (slices.Contains(keys, "action") || slices.Contains(keys, "observation") || slices.Contains(keys, "kind"))
}

// isFlatEvent reports whether keys are those of an event of a 2024
// resolver history: an action or an observation, with no source.
func isFlatEvent(keys []string) bool {
	return slices.Contains(keys, "action") != slices.Contains(keys, "observation")
}

// Import returns the first trajectory of r.
func (im Importer) Import(r io.Reader, name string) (*session.Session, error) {
	return norm.First(func(emit func(*session.Session) error) error { return im.ImportEach(r, name, emit) }, name, "trajectory")
}

// errStop ends reading after emit failed.
var errStop = errors.New("stopped")

// ImportEach reads every trajectory of r: an event array, an object with
// a history (an evaluation or resolver line), or one such object per
// line. Events that stand alone at the top level (JSON Lines of V1 events)
// are one trajectory together.
func (Importer) ImportEach(r io.Reader, name string, emit func(*session.Session) error) error {
	f := &fileReader{name: name, emit: emit}
	err := jsondoc.Values(r, f.value, func(line int, err error) {
		if !errors.Is(err, errStop) { // already reported, or the caller's error
			f.orphan = append(f.orphan, session.Diagnostic{File: name, Line: line, Severity: session.SeverityError, Message: norm.JSONError(err)})
		}
	})
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	if f.emitErr != nil {
		return f.emitErr
	}
	if f.stream != nil {
		return f.finish(f.stream)
	}
	if len(f.orphan) > 0 {
		return f.finish(newBuilder(name, norm.BaseID(name)))
	}
	return nil
}

// fileReader reads the JSON values of one file into sessions: each
// trajectory (a V0 array or a V1 object) is one, and the top-level events
// of a JSON Lines file between them another.
type fileReader struct {
	name    string
	emit    func(*session.Session) error
	emitErr error // the caller's, which stops the reading
	// orphan are diagnostics met outside any session, given to the next.
	orphan []session.Diagnostic
	stream *builder // the trajectory of top-level events
	n      int      // sessions begun
}

// value reads one JSON value of the file.
func (f *fileReader) value(d *jsondoc.Doc) error {
	if f.emitErr != nil {
		return d.Skip()
	}
	delim, err := d.Peek()
	if err != nil {
		return err
	}
	if delim == '[' {
		if f.stream != nil {
			// Among JSON Lines of events, an array is damage, not a V0
			// trajectory.
			_, line, err := d.Raw()
			if err != nil {
				return err
			}
			norm.Diag(f.stream.s, f.name, line, session.SeverityError, "an array among the events of a JSON Lines file; skipped")
			return nil
		}
		b := f.next()
		readErr := readEvents(d, b)
		return b.done(d, readErr, f.finish)
	}
	raw, line, err := d.Raw()
	if err != nil {
		return err
	}
	if isTrajectory(raw) {
		if f.stream != nil {
			if err := f.finish(f.stream); err != nil {
				return err
			}
			f.stream = nil
		}
		b := f.next()
		return b.done(d, readTrajectory(raw, line, b), f.finish)
	}
	if f.stream == nil {
		f.stream = f.next()
	}
	f.stream.event(raw, line)
	return nil
}

// next begins the file's next session.
func (f *fileReader) next() *builder {
	f.n++
	b := newBuilder(f.name, norm.BaseID(f.name))
	if f.n > 1 {
		b.s.ID += "#" + strconv.Itoa(f.n)
	}
	return b
}

// finish hands a session read to the caller, with the diagnostics met
// before it.
func (f *fileReader) finish(b *builder) error {
	b.s.Diagnostics = append(f.orphan, b.s.Diagnostics...)
	f.orphan = nil
	norm.Finish(b.s)
	if err := f.emit(b.s); err != nil {
		f.emitErr = err
		return errStop
	}
	return nil
}

// done finishes a trajectory that was read whole or up to readErr, which
// it reports; a syntax error ends the document.
func (b *builder) done(d *jsondoc.Doc, readErr error, finish func(*builder) error) error {
	if readErr != nil {
		norm.Diag(b.s, b.file, d.Line(), session.SeverityError, "%s; the rest of the value was not read", norm.JSONError(readErr))
	}
	if err := finish(b); err != nil || readErr == nil {
		return err
	}
	return errStop // the decoder cannot go on after a syntax error
}

// readEvents reads an event array into b, one event at a time.
func readEvents(d *jsondoc.Doc, b *builder) error {
	return d.Array(func(int) error {
		raw, line, err := d.Raw()
		if err != nil {
			return err
		}
		b.event(raw, line)
		return nil
	})
}

// isTrajectory reports whether a top-level object is a trajectory (an
// object with a history) rather than a single event.
func isTrajectory(raw json.RawMessage) bool {
	var probe struct {
		History json.RawMessage `json:"history"`
	}
	return json.Unmarshal(raw, &probe) == nil && probe.History != nil
}

// trajectory is an evaluation or resolver line: a task instance, its
// history of events and the metrics of its model calls.
type trajectory struct {
	InstanceID  any                     `json:"instance_id"`
	Instruction string                  `json:"instruction"`
	Issue       *struct{ Title string } `json:"issue"`
	History     []json.RawMessage       `json:"history"`
	Metrics     *metrics                `json:"metrics"`
}

// readTrajectory converts an evaluation or resolver line. Events are
// numbered by their position in the history, on the line the object
// starts on.
func readTrajectory(raw json.RawMessage, line int, b *builder) error {
	var tr trajectory
	if err := json.Unmarshal(raw, &tr); err != nil {
		return err
	}
	if tr.InstanceID != nil {
		b.s.ID = fmt.Sprint(tr.InstanceID)
		b.s.Title = b.s.ID
	}
	if tr.Issue != nil && tr.Issue.Title != "" {
		b.s.Title = norm.Short(tr.Issue.Title, 80) // a resolver run names its issue
	}
	for _, ev := range tr.History {
		b.event(ev, line)
	}
	b.applyMetrics(tr.Metrics)
	return nil
}
