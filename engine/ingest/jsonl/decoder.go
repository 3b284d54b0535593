package jsonl

import (
	"errors"
	"fmt"
	"io"

	"ctxscope/engine/session"
)

// Update is one change a [Decoder] made to its session while decoding a
// line: an entry appended to a thread, or an entry that already existed and
// gained content (a Claude Code response split over several lines, or usage
// reported after the response).
type Update struct {
	Thread *session.Thread
	Entry  *session.Entry
	// Merged is true when Entry was already in Thread and was changed in
	// place rather than appended.
	Merged bool
}

// A Decoder turns the lines of one session file into a session
// incrementally: each complete line is decoded as soon as it is fed, so a
// live tail can show new records without re-reading the file. Decoders are
// not safe for concurrent use.
type Decoder interface {
	// Line decodes one complete line (without its terminator); n is its
	// 1-based line number. It appends the changes it made to out and
	// returns it. Problems that leave the line usable, or that make it
	// skippable, are recorded as diagnostics on the session; an error
	// means the line is not JSON at all and was skipped, and the caller
	// records it with its location.
	Line(line []byte, n int, out []Update) ([]Update, error)
	// Session returns the session decoded so far. It grows as lines are
	// fed; callers must not change it.
	Session() *session.Session
	// Finish resolves what needs the whole file (fallback titles, start
	// times) and returns the session. Lines may still be fed afterwards.
	Finish() *session.Session
}

// Decode feeds every line of r to d and returns the finished session.
// Lines longer than max bytes (DefaultMaxRecord when max <= 0) and lines
// that are not JSON become error diagnostics naming file:line; a final line
// without a newline that fails to parse is reported as truncated. Only a
// read failure is returned as an error.
func Decode(r io.Reader, name string, d Decoder, max int) (*session.Session, error) {
	if max <= 0 {
		max = DefaultMaxRecord
	}
	lr := NewReader(r, max)
	var buf []Update
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, ErrTooLong) {
			AddDiagnostic(d.Session(), name, lr.Line(), "record skipped: the line is longer than %d bytes", max)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		buf, err = d.Line(line, lr.Line(), buf[:0])
		if err != nil {
			if lr.Partial() {
				AddDiagnostic(d.Session(), name, lr.Line(), "truncated last line skipped: %v", err)
			} else {
				AddDiagnostic(d.Session(), name, lr.Line(), "line skipped: %v", err)
			}
		}
	}
	return d.Finish(), nil
}

// AddDiagnostic records an error-severity diagnostic at file:line on s.
func AddDiagnostic(s *session.Session, file string, line int, format string, args ...any) {
	s.Diagnostics = append(s.Diagnostics, session.Diagnostic{
		File: file, Line: line, Severity: session.SeverityError, Message: fmt.Sprintf(format, args...),
	})
}
