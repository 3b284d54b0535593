package tail

import (
	"bytes"
	"fmt"

	"ctxscope/engine/ingest"
	"ctxscope/engine/ingest/jsonl"
)

// line decodes one complete line, first detecting the format when the
// reader does not know it yet.
func (r *Reader) line(line []byte, evs []Event) []Event {
	r.pos.Line++
	opened := r.feeder == nil || r.primed
	r.primed = false
	if r.feeder == nil && !r.detect(line) {
		if r.inert {
			evs = append(evs, Event{Kind: EventError, Path: r.path, Err: r.err, Offset: r.pos.Offset})
		}
		return evs
	}
	s := r.Session()
	before := len(s.Diagnostics)
	r.feeder.Feed(bytes.TrimRight(line, "\r"), r.pos.Line, false)
	if opened {
		evs = append(evs, Event{Kind: EventOpened, Path: r.path, Session: snapshotSession(s), Offset: r.pos.Offset})
	}
	for _, u := range r.feeder.Updates {
		evs = append(evs, Event{Kind: EventEntry, Path: r.path, Thread: u.Thread.ID, ThreadKind: u.Thread.Kind, ParentID: u.Thread.ParentID,
			Entry: snapshotEntry(u.Entry), Merged: u.Merged, Offset: r.pos.Offset + int64(len(line)+1)})
	}
	evs = r.diagnostics(evs, before)
	if rel, ok := r.feeder.Decoder.(jsonl.Releaser); ok {
		rel.Release()
	}
	return evs
}

// diagnostics reports the session's diagnostics from index from on.
func (r *Reader) diagnostics(evs []Event, from int) []Event {
	ds := r.Session().Diagnostics
	for i := max(from, 0); i < len(ds); i++ {
		d := ds[i]
		evs = append(evs, Event{Kind: EventDiagnostic, Path: r.path, Diagnostic: &d, Offset: r.pos.Offset})
	}
	return evs
}

// detect picks the decoder from the head of the file, once its first line
// is complete. Blank lines wait; a file of no followable format makes the
// reader inert, with the reason in r.err.
func (r *Reader) detect(line []byte) bool {
	if len(bytes.TrimSpace(line)) == 0 {
		return false
	}
	head := make([]byte, ingest.SniffSize)
	n, _ := r.f.ReadAt(head, 0)
	if n < len(line) {
		head, n = line, len(line) // the file shrank under us: judge by the line
	}
	im, err := ingest.Detect(head[:n])
	if err == nil {
		if ingest.CanStream(im, head[:n]) {
			r.format = im.Format()
			r.feeder = &jsonl.Feeder{Decoder: im.(ingest.Incremental).NewDecoder(r.path), Name: r.path, Max: r.max}
			return true
		}
		err = fmt.Errorf("%w (%s, a whole document): follow it from its start", ErrNotFollowable, im.Format())
	}
	r.inert, r.err = true, fmt.Errorf("%s: %w", r.path, err)
	r.Close()
	return false
}

// isWhole reports whether the open file, read from its start, is of a
// whole-document format, and if so sets the reader to follow it whole.
// A file too short to tell waits for more.
func (r *Reader) isWhole() bool {
	head := make([]byte, ingest.SniffSize)
	n, _ := r.f.ReadAt(head, 0)
	if len(bytes.TrimSpace(head[:n])) == 0 {
		return false
	}
	im, err := ingest.Detect(head[:n])
	if err != nil || ingest.CanStream(im, head[:n]) {
		return false
	}
	r.format = im.Format()
	r.whole = &wholeState{}
	return true
}
