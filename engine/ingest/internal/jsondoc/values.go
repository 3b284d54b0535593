package jsondoc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"ctxscope/engine/ingest/jsonl"
)

// peekWindow is how much of a file Values looks at to tell JSON Lines from
// a (pretty-printed) JSON document.
const peekWindow = 1 << 20

// Values reads every top-level JSON value of r and calls fn with a Doc
// positioned at each. It reads JSON Lines (one value per line) line by
// line, so that a bad line costs only that line, and any other layout (a
// pretty-printed document, or several) as one stream, where a syntax error
// ends the reading. Each problem is passed to bad with its 1-based line;
// an error from fn is passed to bad too, and reading goes on with the
// next line when the layout allows it. Only a read failure is returned.
func Values(r io.Reader, fn func(d *Doc) error, bad func(line int, err error)) error {
	br := bufio.NewReaderSize(r, peekWindow)
	if isJSONLines(br) {
		return lines(br, fn, bad)
	}
	d := New(br)
	for d.More() {
		before := d.dec.InputOffset()
		if err := fn(d); err != nil {
			bad(d.Line(), err)
			return nil
		}
		if d.dec.InputOffset() == before {
			// fn swallowed an error that leaves the decoder stuck.
			break
		}
	}
	// More stops at a syntax error too: tell it apart from the end.
	var extra json.RawMessage
	if err := d.dec.Decode(&extra); err != nil && !errors.Is(err, io.EOF) {
		bad(d.Line(), err)
	}
	return nil
}

// isJSONLines reports whether the first line of br is a whole JSON value
// (or too long to tell, which a single-line document is too).
func isJSONLines(br *bufio.Reader) bool {
	head, _ := br.Peek(peekWindow)
	head = bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	i := bytes.IndexByte(head, '\n')
	if i < 0 {
		return true // one line, or a first line longer than the window
	}
	return json.Valid(head[:i])
}

func lines(r io.Reader, fn func(d *Doc) error, bad func(line int, err error)) error {
	lr := jsonl.NewReader(r, 0)
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if errors.Is(err, jsonl.ErrTooLong) {
			bad(lr.Line(), fmt.Errorf("record skipped: the line is longer than %d bytes", jsonl.DefaultMaxRecord))
			continue
		}
		if err != nil {
			return err
		}
		d := New(bytes.NewReader(line))
		d.lc.before = lr.Line() - 1
		if err := fn(d); err != nil {
			if lr.Partial() {
				err = fmt.Errorf("truncated last line: %w", err)
			}
			bad(lr.Line(), err)
			continue
		}
		if d.More() {
			bad(lr.Line(), errors.New("unexpected data after the record; rest of the line skipped"))
		}
	}
}
