package store

import (
	"bytes"
	"encoding/json"
	"io"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

// A Decoder reads every session in a file's content; name is the file's
// path, used in diagnostics and kept as each session's Source. Importers
// that find several sessions in one file return them all, in a stable
// order, each with its own ID.
type Decoder func(r io.Reader, name string) ([]*session.Session, error)

// DecodeFile is the default [Decoder]: content-sniffing import through
// engine/ingest. It is the one place the workspace calls the importers.
func DecodeFile(r io.Reader, name string) ([]*session.Session, error) {
	return ingest.ReadAll(r, name)
}

// completePrefix returns the part of a JSON Lines file that a live import
// may consume: everything up to the last newline when the last line is
// still being written (it has no newline and is not yet valid JSON).
// Content that is not JSON Lines is returned whole.
func completePrefix(data []byte) []byte {
	if len(data) == 0 || data[len(data)-1] == '\n' {
		return data
	}
	nl := bytes.LastIndexByte(data, '\n')
	if nl < 0 {
		return data
	}
	first, _, _ := bytes.Cut(data, []byte{'\n'})
	first = bytes.TrimSpace(bytes.TrimPrefix(first, []byte("\xef\xbb\xbf")))
	if len(first) == 0 || first[0] != '{' || !json.Valid(first) {
		return data // not JSON Lines: a pretty-printed or array document
	}
	if json.Valid(data[nl+1:]) {
		return data
	}
	return data[:nl+1]
}
