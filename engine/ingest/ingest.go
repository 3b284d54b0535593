// Package ingest reads agent session files of every supported format into
// the normalized [session] model. The format is detected from the content,
// never from the file name.
package ingest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"ctxscope/engine/ingest/pi"
	"ctxscope/engine/session"
)

// An Importer reads one session format.
type Importer interface {
	// Format names the format.
	Format() session.Format
	// Sniff reports whether head, the first bytes of a file (up to 64 KiB),
	// look like this format.
	Sniff(head []byte) bool
	// Import reads a whole session. Malformed records become diagnostics
	// on the session; an error means the input could not be read at all.
	Import(r io.Reader, name string) (*session.Session, error)
}

// importers lists every importer in the order detection tries them: the
// most specific signatures first.
var importers = []Importer{
	pi.Importer{},
}

// ErrUnknownFormat is returned when no importer recognises a file.
var ErrUnknownFormat = errors.New("ingest: unrecognized session format")

// sniffSize is how much of a file detection looks at.
const sniffSize = 64 << 10

// Detect returns the importer whose format head matches.
func Detect(head []byte) (Importer, error) {
	for _, im := range importers {
		if im.Sniff(head) {
			return im, nil
		}
	}
	return nil, ErrUnknownFormat
}

// ByFormat returns the importer for a named format.
func ByFormat(f session.Format) (Importer, error) {
	for _, im := range importers {
		if im.Format() == f {
			return im, nil
		}
	}
	return nil, fmt.Errorf("ingest: no importer for format %q", f)
}

// Formats lists the formats that can be imported.
func Formats() []session.Format {
	out := make([]session.Format, len(importers))
	for i, im := range importers {
		out[i] = im.Format()
	}
	return out
}

// Read detects the format of r and imports it; name is used in
// diagnostics.
func Read(r io.Reader, name string) (*session.Session, error) {
	br := bufio.NewReaderSize(r, sniffSize)
	head, err := br.Peek(sniffSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(head) == 0 {
		return nil, fmt.Errorf("%s: %w: the file is empty", name, ErrUnknownFormat)
	}
	im, err := Detect(head)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return im.Import(br, name)
}

// ReadFile opens path and imports it with [Read].
func ReadFile(path string) (*session.Session, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}
