package tail

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/inputfile"
	"ctxscope/engine/session"
)

// Position is how far a [Reader] has read: the bytes and lines of the
// complete lines it consumed. A partial last line is not part of it.
type Position struct {
	Offset int64 `json:"offset"`
	Line   int   `json:"line"`
}

// Reader follows one session file. It is not safe for concurrent use; a
// [Watcher] runs each of its readers on one goroutine.
type Reader struct {
	path string
	max  int
	f    *os.File
	info fs.FileInfo
	pos  Position
	// partial holds the bytes after the last newline read so far.
	partial []byte
	// skipping is set while the rest of an oversized line is discarded.
	skipping bool
	feeder   *jsonl.Feeder
	format   session.Format
	// inert is set once the file proved impossible to follow.
	inert bool
	err   error // why the reader is inert
	// more is set when the last Poll stopped before the end of the file.
	more bool
	// primed is set when the decoder was primed with the first line of a
	// resumed file; the opened event is still to be sent.
	primed bool
	// tailBytes are the last bytes consumed (up to tailSize), to notice a
	// file rewritten in place past its old size between two polls.
	tailBytes []byte
	// whole is set for a whole-document format, read again on each change
	// instead of line by line.
	whole *wholeState
}

const tailSize = 64

// ErrNotFollowable is reported for files that cannot be followed: a
// whole-document format too big to read again on each change.
var ErrNotFollowable = errors.New("tail: this format cannot be followed live")

// Open returns a reader of path that starts at pos (the zero Position for
// the beginning). Resuming in the middle of a file starts a fresh decoder
// there, so records that refer to earlier ones (a Claude Code response's
// later lines, a Codex token count) arrive as entries of their own. The
// file need not exist yet; maxRecord bounds a line (jsonl.DefaultMaxRecord
// when 0).
func Open(path string, pos Position, maxRecord int) *Reader {
	if maxRecord <= 0 {
		maxRecord = jsonl.DefaultMaxRecord
	}
	return &Reader{path: path, pos: pos, max: maxRecord}
}

// Path returns the followed path.
func (r *Reader) Path() string { return r.path }

// More reports whether the last Poll stopped before the end of the file
// because it had read pollChunk bytes; poll again to go on. Reading a big
// file in chunks keeps the events of one poll, and so memory, bounded.
func (r *Reader) More() bool { return r.more }

// readBufs holds read buffers, shared by all readers so that following
// thousands of mostly idle files does not hold a buffer for each.
var readBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// pollChunk is how much one Poll reads at most.
const pollChunk = 4 << 20

// Position returns how far the reader has consumed the file.
func (r *Reader) Position() Position { return r.pos }

// Session returns the session decoded so far, or nil before the format
// is known: its header, threads and diagnostics. Entries are not kept
// once reported (events carry copies), so that following a file of any
// size takes bounded memory. It belongs to the reader's goroutine.
func (r *Reader) Session() *session.Session {
	if r.whole != nil {
		return r.whole.session
	}
	if r.feeder == nil {
		return nil
	}
	return r.feeder.Decoder.Session()
}

// Close releases the open file.
func (r *Reader) Close() error {
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	return err
}

// Poll reads whatever the file gained since the last call and returns the
// events it made, in file order. A missing file is not an error: the
// reader waits for it. The error result is for read failures.
func (r *Reader) Poll() ([]Event, error) {
	if r.inert {
		return nil, nil
	}
	var evs []Event
	cur, err := os.Stat(r.path)
	if errors.Is(err, fs.ErrNotExist) {
		if r.f != nil {
			return r.read(evs) // a rotated file may still hold unread lines
		}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if r.whole != nil {
		return r.pollWhole(cur), nil
	}
	switch {
	case r.f == nil:
		if err := r.open(cur); err != nil {
			return nil, err
		}
		if r.pos.Offset == 0 && r.feeder == nil && r.isWhole() {
			r.Close()
			return r.pollWhole(cur), nil
		}
		if cur.Size() < r.pos.Offset {
			evs = r.restart(evs)
		} else if r.pos.Offset > 0 && r.feeder == nil {
			if r.prime(); r.inert {
				return append(evs, Event{Kind: EventError, Path: r.path, Err: r.err, Offset: r.pos.Offset}), nil
			}
		}
	case !os.SameFile(r.info, cur):
		// Replaced or rotated: finish the old file, then start the new.
		if evs, err = r.read(evs); err != nil {
			return evs, err
		}
		r.Close()
		if err := r.open(cur); err != nil {
			return evs, err
		}
		evs = r.restart(evs)
	case cur.Size() < r.pos.Offset+int64(len(r.partial)) || r.rewritten():
		evs = r.restart(evs) // truncated, or truncated and written again
	}
	return r.read(evs)
}

func (r *Reader) open(info fs.FileInfo) error {
	f, _, err := inputfile.Open(r.path)
	if err != nil {
		return err
	}
	r.f, r.info = f, info
	return nil
}

// prime decodes the first line of a file resumed in the middle, without
// reporting it, so that the decoder knows the header (pi's version, a
// Codex session's id) before the lines that follow the resume point.
func (r *Reader) prime() {
	var first []byte
	buf := make([]byte, 64<<10)
	for off := int64(0); len(first) <= r.max; {
		n, err := r.f.ReadAt(buf, off)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			first = append(first, buf[:i]...)
			break
		}
		first = append(first, buf[:n]...)
		off += int64(n)
		if err != nil {
			return // no whole first line: nothing to prime with
		}
	}
	if int64(len(first)) >= r.pos.Offset || !r.detect(first) {
		return // resumed inside the first line, or not followable (r.inert)
	}
	r.feeder.Feed(bytes.TrimRight(first, "\r"), 1, false)
	r.primed = true
}

// rewritten reports whether the bytes before the reader's position are no
// longer the ones it consumed.
func (r *Reader) rewritten() bool {
	n := len(r.tailBytes)
	if n == 0 || r.pos.Offset < int64(n) {
		return false
	}
	var b [tailSize]byte
	got, _ := r.f.ReadAt(b[:n], r.pos.Offset-int64(n))
	return !bytes.Equal(b[:got], r.tailBytes)
}

// remember keeps the last bytes of a consumed line, newline included, for
// rewritten.
func (r *Reader) remember(line []byte) {
	if len(line)+1 >= tailSize {
		r.tailBytes = append(r.tailBytes[:0], line[len(line)+1-tailSize:]...)
	} else {
		keep := min(len(r.tailBytes), tailSize-len(line)-1)
		r.tailBytes = append(r.tailBytes[:0], r.tailBytes[len(r.tailBytes)-keep:]...)
		r.tailBytes = append(r.tailBytes, line...)
	}
	r.tailBytes = append(r.tailBytes, '\n')
}

// restart forgets everything read, so that the file is read from its
// start with a fresh decoder.
func (r *Reader) restart(evs []Event) []Event {
	had := r.feeder != nil
	r.pos, r.partial, r.skipping, r.feeder, r.tailBytes = Position{}, r.partial[:0], false, nil, r.tailBytes[:0]
	if had {
		evs = append(evs, Event{Kind: EventReset, Path: r.path})
	}
	return evs
}

// read consumes the file from the reader's position to its end.
func (r *Reader) read(evs []Event) ([]Event, error) {
	bp := readBufs.Get().(*[]byte)
	defer readBufs.Put(bp)
	buf := *bp
	at := r.pos.Offset + int64(len(r.partial))
	if r.skipping {
		at = r.pos.Offset
	}
	start := at
	r.more = false
	for {
		n, err := r.f.ReadAt(buf, at)
		at += int64(n)
		evs = r.consume(buf[:n], evs)
		if r.inert {
			return evs, nil
		}
		if errors.Is(err, io.EOF) || n == 0 {
			return evs, nil
		}
		if at-start >= pollChunk {
			r.more = true // a big file: let the caller deliver these first
			return evs, nil
		}
		if err != nil {
			return evs, fmt.Errorf("tail %s: %w", r.path, err)
		}
	}
}

// consume splits data into lines and decodes the complete ones.
func (r *Reader) consume(data []byte, evs []Event) []Event {
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			evs = r.keepPartial(data, evs)
			return evs
		}
		chunk := data[:i]
		data = data[i+1:]
		if !r.skipping && len(r.partial)+len(chunk) > r.max {
			// A whole line over the limit within one read: skip it too.
			r.pos.Offset += int64(len(r.partial))
			r.partial, r.skipping = r.partial[:0], true
		}
		if r.skipping {
			r.skipping = false
			r.pos.Offset += int64(i + 1)
			r.pos.Line++
			r.tailBytes = r.tailBytes[:0] // what was skipped is not remembered
			if r.feeder != nil {
				r.feeder.TooLong(r.pos.Line)
				evs = r.diagnostics(evs, len(r.Session().Diagnostics)-1)
			}
			continue
		}
		line := chunk
		if len(r.partial) > 0 {
			r.partial = append(r.partial, chunk...)
			line = r.partial
		}
		evs = r.line(line, evs)
		if r.inert {
			return evs
		}
		r.pos.Offset += int64(len(line) + 1)
		r.remember(line)
		r.partial = r.partial[:0]
		if cap(r.partial) > 1<<20 {
			r.partial = nil // do not keep a big line's buffer for an idle file
		}
	}
	return evs
}

// keepPartial holds the start of a line until its newline arrives. A line
// that outgrows the record limit is discarded as it arrives.
func (r *Reader) keepPartial(data []byte, evs []Event) []Event {
	if r.skipping {
		r.pos.Offset += int64(len(data))
		return evs
	}
	if len(r.partial)+len(data) > r.max {
		r.pos.Offset += int64(len(r.partial) + len(data))
		r.partial, r.skipping = r.partial[:0], true
		return evs
	}
	r.partial = append(r.partial, data...)
	return evs
}
