// Package jsonl reads JSON Lines streams one record at a time, keeping
// memory bounded by the largest record and reporting line numbers, so that
// importers can say exactly where a file went wrong.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
)

// DefaultMaxRecord is the largest record a [Reader] accepts by default:
// 256 MiB. Longer lines are skipped with an error.
const DefaultMaxRecord = 256 << 20

// ErrTooLong reports a line longer than the reader's limit. The line is
// skipped; reading can continue.
var ErrTooLong = errors.New("jsonl: record exceeds the size limit")

// Reader yields the lines of a JSONL stream.
type Reader struct {
	r       *bufio.Reader
	line    int
	offset  int64
	max     int
	buf     []byte
	partial bool
}

// NewReader returns a reader over r that accepts records up to max bytes
// (DefaultMaxRecord when max <= 0).
func NewReader(r io.Reader, max int) *Reader {
	if max <= 0 {
		max = DefaultMaxRecord
	}
	return &Reader{r: bufio.NewReaderSize(r, 1<<16), max: max}
}

// Line returns the 1-based number of the line most recently returned.
func (r *Reader) Line() int { return r.line }

// Offset returns the byte offset just past the line most recently
// returned, newline included. Live tail resumes reading from it.
func (r *Reader) Offset() int64 { return r.offset }

// Partial reports whether the line most recently returned had no final
// newline: the last line of a file that may still be being written.
func (r *Reader) Partial() bool { return r.partial }

// Next returns the next line without its line terminator (\n or \r\n).
// Blank lines are skipped but counted. It returns io.EOF at the end, and
// ErrTooLong (wrapped, with the line number) for an oversized line, after
// which reading can continue. The returned slice is valid until the next
// call.
func (r *Reader) Next() ([]byte, error) {
	for {
		line, err := r.readLine()
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		return bytes.TrimRight(line, "\r"), nil
	}
}

func (r *Reader) readLine() ([]byte, error) {
	if cap(r.buf) > keptLineBuffer {
		r.buf = nil // one huge line is no reason to hold its room for good
	}
	r.buf = r.buf[:0]
	tooLong := false
	for {
		chunk, err := r.r.ReadSlice('\n')
		r.offset += int64(len(chunk))
		if !tooLong {
			if len(r.buf)+len(chunk) > r.max+1 {
				tooLong = true
				r.buf = r.buf[:0]
			} else {
				before := cap(r.buf)
				r.buf = appendGrowing(r.buf, chunk)
				if before > returnedLine && cap(r.buf) != before {
					debug.FreeOSMemory() // the room the line outgrew
				}
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			if len(r.buf) == 0 && !tooLong {
				return nil, io.EOF
			}
			r.line++
			r.partial = true
			// The limit leaves room for a newline this last line lacks.
			tooLong = tooLong || len(r.buf) > r.max
		case err != nil:
			return nil, err
		default:
			r.line++
			r.partial = false
			if !tooLong {
				r.buf = r.buf[:len(r.buf)-1] // the newline
			}
		}
		if tooLong {
			return nil, fmt.Errorf("line %d: %w (%d bytes)", r.line, ErrTooLong, r.max)
		}
		return r.buf, nil
	}
}

// DropHugeLine lets go of the room a huge line was read into, once the
// line is no longer used (its decoder has copied what it keeps), so that
// what is done with the record is not done beside the line. The room of a
// line over returnedLine is given back to the system at once: the
// collector would otherwise let what the record's storing allocates grow
// beside it before it looks (a 200 MB record was stored beside its line,
// 200 MB more than it needed).
func (r *Reader) DropHugeLine() {
	if cap(r.buf) > keptLineBuffer {
		huge := cap(r.buf) > returnedLine
		r.buf = nil
		if huge {
			debug.FreeOSMemory()
		}
	}
}

// returnedLine is the size of a line's room past which the reader gives
// it back to the system when the line outgrows it or is dropped: a full
// collection costs little beside reading that much, and happens at most
// twice per returnedLine of input.
const returnedLine = 64 << 20

// keptLineBuffer is the most room the reader keeps from one line to the
// next.
const keptLineBuffer = 4 << 20

// appendGrowing appends chunk to buf, doubling buf's capacity when it
// must grow. append grows a large slice by a quarter each time, so that a
// 200 MB line read in buffer-sized chunks allocated over a gigabyte in
// all; doubling allocates about twice the line.
func appendGrowing(buf, chunk []byte) []byte {
	if need := len(buf) + len(chunk); need > cap(buf) {
		grown := make([]byte, len(buf), max(need, 2*cap(buf)))
		copy(grown, buf)
		buf = grown
	}
	return append(buf, chunk...)
}
