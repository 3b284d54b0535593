package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// assembler joins the lines of records that were pretty-printed over
// several lines, which JSON Lines forbids but hand-edited or re-formatted
// files contain.
type assembler struct {
	buf   []byte
	start int // the line the pending record starts on; 0 when none
	max   int
}

// begins reports whether line opens a JSON value that continues on later
// lines.
func begins(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) > 0 && (t[0] == '{' || t[0] == '[') && incomplete(t)
}

// incomplete reports whether b is the beginning of a JSON value that ends
// too early, as opposed to one that is wrong.
func incomplete(b []byte) bool {
	var v json.RawMessage
	err := json.NewDecoder(bytes.NewReader(b)).Decode(&v)
	return errors.Is(err, io.ErrUnexpectedEOF)
}

func (a *assembler) open(line []byte, n int) {
	a.buf = append(a.buf[:0], line...)
	a.start = n
}

// add appends a line to the pending record. It returns the record once it
// is whole (done), or tells that it can no longer become one (broken).
func (a *assembler) add(line []byte) (record []byte, done, broken bool) {
	a.buf = append(a.buf, '\n')
	a.buf = append(a.buf, line...)
	if json.Valid(a.buf) {
		a.start = 0
		return a.buf, true, false
	}
	if len(a.buf) > a.max || !incomplete(a.buf) {
		a.start = 0
		return nil, false, true
	}
	return nil, false, false
}

// FirstValues returns up to n whole JSON values from the start of head,
// whatever their layout: one per line, or pretty-printed over several.
// Importers sniff with it, so that a pretty-printed file is recognized.
func FirstValues(head []byte, n int) []json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(head))
	var out []json.RawMessage
	for len(out) < n {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			break
		}
		out = append(out, v)
	}
	return out
}
