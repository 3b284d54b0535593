package ingest

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/session"
)

// ErrNotIncremental is returned by [Stream] for formats without an
// incremental decoder (whole-document formats): use [ReadEach] for them.
var ErrNotIncremental = errors.New("ingest: the format cannot be streamed record by record")

// Stream decodes r record by record with its format's incremental decoder
// and passes every update to fn as soon as its line is decoded. Entries
// are not kept once fn has seen them, so memory is bounded by the largest
// record plus, for formats whose records refer to earlier ones, an index
// of entry ids: this is how a store that keeps entries elsewhere imports a
// file of any size. An update marked Merged changes an entry fn saw
// before. Stream returns the session without its entries: its header,
// threads and diagnostics. An error from fn stops reading and is returned.
// Stream works for pi, Claude Code and Codex; other formats return
// ErrNotIncremental.
func Stream(r io.Reader, name string, fn func(jsonl.Update) error) (*session.Session, error) {
	return StreamAs(nil, r, name, fn)
}

// StreamAs is [Stream] with the format already detected (im), by a caller
// that looked at the file before: detection of a file whose head ends
// inside its first value reads that whole value. A nil im detects.
func StreamAs(im Importer, r io.Reader, name string, fn func(jsonl.Update) error) (*session.Session, error) {
	return stream(im, r, name, fn, false)
}

// StreamKeeping is StreamAs for a caller that wants the whole session
// too: the decoder keeps every entry it reported, and the session it
// returns holds them all, as ReadFileAll's does.
func StreamKeeping(im Importer, r io.Reader, name string, fn func(jsonl.Update) error) (*session.Session, error) {
	return stream(im, r, name, fn, true)
}

// stream feeds r's lines to im's decoder and fn its updates; keep says
// whether the decoder keeps the entries it reported.
func stream(im Importer, r io.Reader, name string, fn func(jsonl.Update) error, keep bool) (*session.Session, error) {
	br := bufio.NewReaderSize(r, SniffSize)
	head, err := br.Peek(SniffSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if im == nil {
		if im, err = detectFile(head, name); err != nil {
			return nil, err
		}
	}
	inc, ok := im.(Incremental)
	if !ok || !CanStream(im, head) {
		return nil, fmt.Errorf("%s: %w (%s)", name, ErrNotIncremental, im.Format())
	}
	d := inc.NewDecoder(name)
	rel, _ := d.(jsonl.Releaser)
	if keep {
		rel = nil
	}
	lr := jsonl.NewReader(br, 0)
	f := &jsonl.Feeder{Decoder: d, Name: name}
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, jsonl.ErrTooLong) {
			f.TooLong(lr.Line())
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		f.Feed(line, lr.Line(), lr.Partial())
		lr.DropHugeLine() // the decoder copied what it keeps of the line
		for _, u := range f.Updates {
			if err := fn(u); err != nil {
				return nil, err
			}
		}
		if rel != nil {
			rel.Release()
		}
	}
	f.End()
	s := d.Finish()
	if fin, ok := d.(jsonl.Finisher); ok {
		for _, u := range fin.Finished() {
			if err := fn(u); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}
