// Package jsondoc streams a large JSON document: it walks objects key by
// key and arrays element by element, so that an importer holds one element
// (one message, one event, one sample) in memory at a time rather than the
// whole file, and it tells the line on which each value starts.
package jsondoc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Doc is a JSON document being read.
type Doc struct {
	dec *json.Decoder
	lc  *lineCounter
}

// New returns a document reader over r.
func New(r io.Reader) *Doc {
	lc := &lineCounter{r: r}
	dec := json.NewDecoder(lc)
	dec.UseNumber()
	return &Doc{dec: dec, lc: lc}
}

// Line returns the 1-based line of the position the reader has reached.
func (d *Doc) Line() int { return d.lc.lineAt(d.dec.InputOffset()) }

// More reports whether the current array or object has another element.
func (d *Doc) More() bool { return d.dec.More() }

// ErrNotObject and ErrNotArray report a value of the wrong kind where an
// object or an array was expected.
var (
	ErrNotObject = errors.New("expected a JSON object")
	ErrNotArray  = errors.New("expected a JSON array")
)

// Object reads an object, calling fn with each key. fn must consume the
// key's value with one of Raw, Decode, Skip, Object or Array.
func (d *Doc) Object(fn func(key string) error) error {
	if err := d.expect('{', ErrNotObject); err != nil {
		return err
	}
	return d.Members(fn)
}

// Array reads an array, calling fn for each element with its 0-based
// index. fn must consume the element.
func (d *Doc) Array(fn func(i int) error) error {
	if err := d.expect('[', ErrNotArray); err != nil {
		return err
	}
	return d.Elements(fn)
}

// Open reads the next value's opening delimiter, '{' or '[', for a caller
// that decides what to do by the kind of value; it then reads the rest
// with Members or Elements. Any other value is an error.
func (d *Doc) Open() (json.Delim, error) {
	tok, err := d.dec.Token()
	if err != nil {
		return 0, err
	}
	if dl, ok := tok.(json.Delim); ok && (dl == '{' || dl == '[') {
		return dl, nil
	}
	return 0, fmt.Errorf("expected a JSON object or array, got %s", describe(tok))
}

// Peek returns the first byte of the next top-level value without reading
// it: '{' for an object, '[' for an array. More fills the decoder's buffer
// up to that byte, past any white space, and Buffered then starts at it.
func (d *Doc) Peek() (byte, error) {
	if !d.dec.More() {
		return 0, io.EOF
	}
	return d.dec.Buffered().(io.ByteReader).ReadByte()
}

// Members reads the rest of an object whose opening brace was read,
// calling fn with each key.
func (d *Doc) Members(fn func(key string) error) error {
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return err
		}
		key, ok := tok.(string)
		if !ok {
			return fmt.Errorf("expected an object key, got %s", describe(tok))
		}
		if err := fn(key); err != nil {
			return err
		}
	}
	_, err := d.dec.Token() // the closing brace
	return err
}

// Elements reads the rest of an array whose opening bracket was read,
// calling fn for each element with its 0-based index.
func (d *Doc) Elements(fn func(i int) error) error {
	for i := 0; d.dec.More(); i++ {
		if err := fn(i); err != nil {
			return err
		}
	}
	_, err := d.dec.Token() // the closing bracket
	return err
}

func (d *Doc) expect(delim json.Delim, wrong error) error {
	tok, err := d.dec.Token()
	if err != nil {
		return err
	}
	if dl, ok := tok.(json.Delim); !ok || dl != delim {
		return fmt.Errorf("%w, got %s", wrong, describe(tok))
	}
	return nil
}

// Raw reads the next value whole and returns it with the line it starts on.
func (d *Doc) Raw() (json.RawMessage, int, error) {
	var raw json.RawMessage
	if err := d.dec.Decode(&raw); err != nil {
		return nil, d.Line(), err
	}
	return raw, d.lc.lineAt(d.dec.InputOffset() - int64(len(raw))), nil
}

// Decode reads the next value into v.
func (d *Doc) Decode(v any) error { return d.dec.Decode(v) }

// Skip reads past the next value token by token, so that a huge value
// costs no more memory than its largest string.
func (d *Doc) Skip() error {
	depth := 0
	for {
		tok, err := d.dec.Token()
		if err != nil {
			return err
		}
		if dl, ok := tok.(json.Delim); ok {
			if dl == '{' || dl == '[' {
				depth++
			} else {
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}

func describe(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		return fmt.Sprintf("%q", string(v))
	case string:
		return "a string"
	case nil:
		return "null"
	case bool:
		return "a boolean"
	}
	return "a number"
}

// FirstByte returns the first byte of br that is not white space or a
// byte-order mark, without consuming anything; 0 for an empty input.
func FirstByte(br *bufio.Reader) byte {
	for n := 64; ; n *= 2 {
		head, err := br.Peek(n)
		rest := bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
		if len(rest) > 0 {
			return rest[0]
		}
		if err != nil || n >= br.Size() {
			return 0
		}
	}
}

// lineCounter counts the newlines in what it has read, so that a decoder
// offset can be turned into a line number. It keeps only the newlines past
// the last offset asked about, so its memory stays small when offsets are
// asked in increasing order, as a streaming reader does.
type lineCounter struct {
	r        io.Reader
	consumed int64
	before   int     // newlines before pending[0]
	pending  []int64 // offsets of newlines not yet passed by a query
}

// Read reads from the underlying reader and notes where its newlines are.
func (lc *lineCounter) Read(p []byte) (int, error) {
	n, err := lc.r.Read(p)
	for i := 0; i < n; {
		j := bytes.IndexByte(p[i:n], '\n')
		if j < 0 {
			break
		}
		lc.pending = append(lc.pending, lc.consumed+int64(i+j))
		i += j + 1
	}
	lc.consumed += int64(n)
	return n, err
}

// lineAt returns the 1-based line of byte offset off. Offsets before one
// already asked about return that earlier answer's line at best.
func (lc *lineCounter) lineAt(off int64) int {
	k := 0
	for k < len(lc.pending) && lc.pending[k] < off {
		k++
	}
	if k > 0 {
		lc.before += k
		lc.pending = append(lc.pending[:0], lc.pending[k:]...)
	}
	return lc.before + 1
}

// SetFirstLine declares the line on which the document starts, for a Doc
// over a value cut out of a larger file.
func (d *Doc) SetFirstLine(line int) { d.lc.before = line - 1 }

// Skip reads past the value at d; it suits a Values callback that has
// nothing more to do.
func Skip(d *Doc) error { return d.Skip() }
