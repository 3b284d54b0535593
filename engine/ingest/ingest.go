// Package ingest reads agent session files of every supported format into
// the normalized [session] model. The format is detected from the content,
// never from the file name.
//
// [Read] and [ReadFile] return one session; [ReadAll] and [ReadEach] return
// every session of files that hold several (OpenAI chat JSONL, tau-bench
// runs, OpenHands evaluation output, Inspect logs with several samples).
// [Expand] turns directories and globs into files, and [ReadPaths] imports
// many files at once, joining a session that spans several files (a Claude
// Code session and its subagent files) into one session with threads.
package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"ctxscope/engine/ingest/claude"
	"ctxscope/engine/ingest/codex"
	"ctxscope/engine/ingest/copilot"
	"ctxscope/engine/ingest/gemini"
	"ctxscope/engine/ingest/inspect"
	"ctxscope/engine/ingest/internal/jsondoc"
	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/ingest/minisweagent"
	"ctxscope/engine/ingest/normalized"
	"ctxscope/engine/ingest/openai"
	"ctxscope/engine/ingest/opencode"
	"ctxscope/engine/ingest/openhands"
	"ctxscope/engine/ingest/otlp"
	"ctxscope/engine/ingest/pi"
	"ctxscope/engine/ingest/proxyrec"
	"ctxscope/engine/ingest/sweagent"
	"ctxscope/engine/inputfile"
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
	// Importers of formats that hold several sessions return the first.
	Import(r io.Reader, name string) (*session.Session, error)
}

// A MultiImporter reads a format whose files can hold several sessions.
type MultiImporter interface {
	Importer
	// ImportEach reads every session of r in file order and passes each to
	// emit as soon as it is complete. An error from emit stops reading and
	// is returned.
	ImportEach(r io.Reader, name string, emit func(*session.Session) error) error
}

// An Incremental importer reads a line-oriented format that a live tail
// can follow: its decoder is fed one complete line at a time.
type Incremental interface {
	Importer
	// NewDecoder returns a decoder for one file; name is used in
	// diagnostics.
	NewDecoder(name string) jsonl.Decoder
}

// importers lists every importer in the order detection tries them: the
// most specific signatures first.
var importers = []Importer{
	normalized.Importer{},
	proxyrec.Importer{},
	pi.Importer{},
	claude.Importer{},
	codex.Importer{},
	copilot.Importer{},
	gemini.Importer{},
	opencode.Importer{},
	inspect.Importer{},
	minisweagent.Importer{},
	sweagent.Importer{},
	openhands.Importer{},
	otlp.Importer{},
	openai.Importer{},
}

// Version numbers what the importers produce. It grows whenever an
// importer reads some file differently than before (a record type it now
// understands, usage it now counts once), so that a workspace reads the
// files it stored with an older version again instead of keeping their
// old reading.
const Version = 4

// ErrUnknownFormat is returned when no importer recognises a file.
var ErrUnknownFormat = errors.New("ingest: unrecognized session format")

// SniffSize is how much of a file detection looks at.
const SniffSize = 64 << 10

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
// diagnostics. When the input holds several sessions, Read returns the
// first with a warning that names how many there are; use [ReadAll] to get
// them all.
func Read(r io.Reader, name string) (*session.Session, error) {
	return first(func(emit func(*session.Session) error) error { return ReadEach(r, name, emit) }, name)
}

// ReadAll detects the format of r and imports every session it holds.
func ReadAll(r io.Reader, name string) ([]*session.Session, error) {
	var out []*session.Session
	err := ReadEach(r, name, func(s *session.Session) error {
		out = append(out, s)
		return nil
	})
	return out, err
}

// ReadEach detects the format of r and passes each session it holds to
// emit, in file order, as soon as the session is complete. An error from
// emit stops reading and is returned.
func ReadEach(r io.Reader, name string, emit func(*session.Session) error) error {
	br := bufio.NewReaderSize(r, SniffSize)
	head, err := br.Peek(SniffSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return fmt.Errorf("read %s: %w", name, err)
	}
	im, err := detectFile(head, name)
	if err != nil {
		return err
	}
	return importEach(im, br, name, emit)
}

func detectHead(head []byte, name string) (Importer, error) {
	if len(head) == 0 {
		return nil, fmt.Errorf("%s: %w: the file is empty", name, ErrUnknownFormat)
	}
	im, err := Detect(head)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return im, nil
}

// CanStream reports whether a file of im's format that starts with head
// can be decoded record by record with [Stream]: its format is
// incremental, and the file is in its line form (a pi file may also be a
// message array, which is read whole).
func CanStream(im Importer, head []byte) bool {
	if _, ok := im.(Incremental); !ok {
		return false
	}
	if l, ok := im.(interface{ Lines(head []byte) bool }); ok {
		return l.Lines(head)
	}
	return true
}

// ImportEach imports every session of r with im, a format already
// detected, passing each to emit as [ReadEach] does. r is handed to the
// importer as it is, so that an open file keeps its random access.
func ImportEach(im Importer, r io.Reader, name string, emit func(*session.Session) error) error {
	return importEach(im, r, name, emit)
}

func importEach(im Importer, r io.Reader, name string, emit func(*session.Session) error) error {
	if m, ok := im.(MultiImporter); ok {
		return m.ImportEach(r, name, emit)
	}
	s, err := im.Import(r, name)
	if err != nil {
		return err
	}
	return emit(s)
}

// ReadFile opens path and imports it with [Read].
func ReadFile(path string) (*session.Session, error) {
	return first(func(emit func(*session.Session) error) error { return ReadFileEach(path, emit) }, path)
}

// first runs a multi-session read and returns its first session, with a
// warning that names how many the file holds when there are several.
func first(each func(emit func(*session.Session) error) error, name string) (*session.Session, error) {
	var first *session.Session
	n := 0
	err := each(func(s *session.Session) error {
		if first == nil {
			first = s
		}
		n++
		return nil
	})
	if err != nil {
		return nil, err
	}
	if first == nil {
		return nil, fmt.Errorf("%s: the file holds no session", name)
	}
	if n > 1 {
		first.Diagnostics = append(first.Diagnostics, session.Diagnostic{File: name, Severity: session.SeverityWarning,
			Message: fmt.Sprintf("the file holds %d sessions; this is the first", n)})
	}
	return first, nil
}

// ReadFileAll opens path and imports every session it holds.
func ReadFileAll(path string) ([]*session.Session, error) {
	var out []*session.Session
	err := ReadFileEach(path, func(s *session.Session) error {
		out = append(out, s)
		return nil
	})
	return out, err
}

// ReadFileEach opens path and passes each session it holds to emit, like
// [ReadEach]. The importer gets the open file itself, so that formats that
// need random access (Inspect's .eval zip containers) read it in place.
func ReadFileEach(path string, emit func(*session.Session) error) error {
	f, _, err := inputfile.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, SniffSize)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	im, err := detectFile(head[:n], path)
	if err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return importEach(im, f, path, emit)
}

// DetectFile returns the importer of the file at path, which starts with
// head: as [Detect] does, but a SQLite database is told by its schema and
// a head that ends inside the file's first value by that value's outline
// (see detectFile). Importers of files on disk detect with it.
func DetectFile(path string, head []byte) (Importer, error) { return detectFile(head, path) }

// detectFile detects the format of the file at path (a reader's name is
// its path), which starts with head. A SQLite database is told by its schema, which SQLite reads
// wherever its pages lie (OpenCode 1.18 defines its tables past the first
// 64 KiB, and a live database keeps them in its write-ahead log); other
// files by their head.
func detectFile(head []byte, path string) (Importer, error) {
	if opencode.IsSQLite(head) {
		if opencode.IsDatabase(path) {
			return opencode.Importer{}, nil
		}
		return nil, fmt.Errorf("%s: %w: a SQLite database without OpenCode's tables (session, message, part with their ids and data)", path, ErrUnknownFormat)
	}
	if firstValueCut(head) {
		// The head ends inside the file's first value, where sniffers
		// that look for a few keys anywhere in the head could claim a
		// file they only see the start of (a Claude Code transcript whose
		// first message is 7 MB read as chat messages): detection reads
		// the first value's outline instead (jsondoc.Outline), and the
		// head only when that tells nothing.
		if im, err := detectOutline(path); err == nil {
			return im, nil
		}
	}
	return detectHead(head, path)
}

// detectOutline detects the format of the file at path from the outline
// of its first JSON value.
func detectOutline(path string) (Importer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	outline, err := jsondoc.Outline(f)
	if err != nil {
		return nil, err
	}
	return detectHead(outline, path)
}

// firstValueCut reports whether head holds the start of a JSON object or
// array that it does not hold whole.
func firstValueCut(head []byte) bool {
	head = bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	if len(head) == 0 || (head[0] != '{' && head[0] != '[') {
		return false
	}
	var v json.RawMessage
	err := json.NewDecoder(bytes.NewReader(head)).Decode(&v)
	return errors.Is(err, io.ErrUnexpectedEOF)
}
