package jsonl

import (
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

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

// A Releaser is a Decoder that can let go of the entries it has reported,
// for a consumer that keeps them elsewhere (the workspace store): after
// Release, the session's threads hold no entries, and the decoder keeps
// only what later lines may refer to (entry ids, the response a split
// Claude Code message may still extend).
type Releaser interface {
	Decoder
	Release()
}

// A Finisher is a Decoder whose Finish may change entries it reported
// before (a reference that only the end of the file resolves). Finished
// returns those changes as merged updates, once, after Finish.
type Finisher interface {
	Decoder
	Finished() []Update
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
	f := &Feeder{Decoder: d, Name: name, Max: max}
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, ErrTooLong) {
			f.TooLong(lr.Line())
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		f.Feed(line, lr.Line(), lr.Partial())
	}
	f.End()
	return d.Finish(), nil
}

// A Feeder passes complete lines to a Decoder and records what goes wrong
// with file:line locations: lines that are not JSON, truncated last lines,
// oversized lines, invalid UTF-8, and records pretty-printed over several
// lines, which it joins and decodes whole. [Decode] uses one for a file;
// a live tail keeps one per followed file.
type Feeder struct {
	Decoder Decoder
	Name    string // the file, for diagnostics
	Max     int    // the largest record, DefaultMaxRecord when 0
	// Updates collects the changes of the most recent Feed.
	Updates []Update

	asm        assembler
	warnedUTF8 bool
	warnedJoin bool
}

// Feed decodes one complete line; n is its line number, and partial tells
// that it is the last line of the input and had no newline. The changes
// are in f.Updates until the next call.
func (f *Feeder) Feed(line []byte, n int, partial bool) {
	f.Updates = f.Updates[:0]
	s := f.Decoder.Session()
	if start := f.asm.start; start > 0 {
		rec, done, broken := f.asm.add(line)
		switch {
		case done:
			f.decode(rec, start, false)
			if !f.warnedJoin {
				f.warnedJoin = true
				addWarning(s, f.Name, start, "a record spans lines %d-%d (pretty-printed JSON Lines); such records are read whole", start, n)
			}
			return
		case !broken:
			return
		}
		// The open record can never be whole: report it where it began
		// and read this line afresh.
		AddDiagnostic(s, f.Name, start, "line skipped: invalid JSON: the record ends early")
	}
	if !f.warnedUTF8 && !utf8.Valid(line) {
		f.warnedUTF8 = true
		addWarning(s, f.Name, n, "invalid UTF-8; the bad bytes read as U+FFFD (reported once per file)")
	}
	if err := f.decode(line, n, partial); err != nil && !partial && begins(line) {
		f.asm.max = f.max()
		f.asm.open(line, n)
		return
	} else if err != nil {
		if partial {
			AddDiagnostic(s, f.Name, n, "truncated last line skipped: %v", err)
		} else {
			AddDiagnostic(s, f.Name, n, "line skipped: %v", err)
		}
	}
}

func (f *Feeder) decode(line []byte, n int, partial bool) error {
	var err error
	f.Updates, err = f.Decoder.Line(line, n, f.Updates)
	return err
}

func (f *Feeder) max() int {
	if f.Max <= 0 {
		return DefaultMaxRecord
	}
	return f.Max
}

// TooLong records that line n was longer than the limit and skipped.
func (f *Feeder) TooLong(n int) {
	AddDiagnostic(f.Decoder.Session(), f.Name, n, "record skipped: the line is longer than %d bytes", f.max())
}

// End reports a record still open at the end of the input.
func (f *Feeder) End() {
	if f.asm.start > 0 {
		AddDiagnostic(f.Decoder.Session(), f.Name, f.asm.start, "a record that begins here never ends; skipped")
		f.asm.start = 0
	}
}

func addWarning(s *session.Session, file string, line int, format string, args ...any) {
	s.Diagnostics = append(s.Diagnostics, session.Diagnostic{
		File: file, Line: line, Severity: session.SeverityWarning, Message: fmt.Sprintf(format, args...),
	})
}

// AddDiagnostic records an error-severity diagnostic at file:line on s.
func AddDiagnostic(s *session.Session, file string, line int, format string, args ...any) {
	s.Diagnostics = append(s.Diagnostics, session.Diagnostic{
		File: file, Line: line, Severity: session.SeverityError, Message: fmt.Sprintf(format, args...),
	})
}
