package proxyrec

import (
	"bytes"
	"io"
	"strconv"

	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/proxy"
	"ctxscope/engine/session"
)

// Importer reads the proxy's record files. The zero value is ready to
// use.
type Importer struct{}

// Format returns [session.FormatProxy].
func (Importer) Format() session.Format { return session.FormatProxy }

// Sniff reports whether head starts a record file: the proxy writes each
// record with its version first, {"ctxscope_proxy":N,..., and the first
// record may be longer than any head (a request of 100 KB).
func (Importer) Sniff(head []byte) bool {
	rest, ok := bytes.CutPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte(`{"ctxscope_proxy":`))
	if !ok {
		return false
	}
	end := bytes.IndexAny(rest, ",}")
	if end < 1 {
		return false
	}
	v, err := strconv.Atoi(string(rest[:end]))
	return err == nil && v >= 1 && v <= proxy.RecordVersion
}

// Import reads one record file. Malformed lines become diagnostics.
func (Importer) Import(r io.Reader, name string) (*session.Session, error) {
	return jsonl.Decode(r, name, newDecoder(name), 0)
}

// NewDecoder returns an incremental decoder of one record file, for a
// live follower; name is used in diagnostics.
func (Importer) NewDecoder(name string) jsonl.Decoder { return newDecoder(name) }
