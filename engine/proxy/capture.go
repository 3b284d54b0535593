package proxy

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// capture keeps the first max bytes of a body that streams through, and
// the size and SHA-256 of all of it.
type capture struct {
	mu    sync.Mutex
	max   int64
	buf   []byte
	n     int64
	sum   hash.Hash
	first time.Time // when the first byte passed
	ended bool      // the body was read to its end
}

func newCapture(max int64) *capture { return &capture{max: max, sum: sha256.New()} }

// buffers keeps the copies' buffers for the next exchanges: a stream of a
// megabyte otherwise grows a new buffer by doubling each time, and the
// garbage collector's work for it is most of the proxy's cost.
var buffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooled is the largest buffer kept for reuse.
const maxPooled = 4 << 20

// grow makes room for n more bytes, from the pool on first use.
func (c *capture) grow(n int) {
	if c.buf == nil {
		c.buf = (*buffers.Get().(*[]byte))[:0]
	}
	if cap(c.buf)-len(c.buf) < n {
		c.buf = append(c.buf[:cap(c.buf)], make([]byte, max(n, cap(c.buf)))...)[:len(c.buf)]
	}
}

// release returns the buffer to the pool; the capture keeps no copy
// after.
func (c *capture) release() {
	if c.buf != nil && cap(c.buf) <= maxPooled {
		b := c.buf[:0]
		buffers.Put(&b)
	}
	c.buf = nil
}

func (c *capture) note(p []byte) {
	if len(p) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == 0 {
		c.first = time.Now()
	}
	c.n += int64(len(p))
	c.sum.Write(p)
	if room := c.max - int64(len(c.buf)); room > 0 {
		keep := p[:min(int64(len(p)), room)]
		c.grow(len(keep))
		c.buf = append(c.buf, keep...)
	}
}

// fingerprint returns the SHA-256 of the bytes that passed so far and the
// conversation their body belongs to, as a record would name it.
func (c *capture) fingerprint(api API) (sum, conversation string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	conversation = "unparsed"
	if c.n <= int64(len(c.buf)) {
		conversation = ConversationKey(api, c.buf)
	}
	return hex.EncodeToString(c.sum.Sum(nil)), conversation
}

// firstAt is when the first byte passed, zero if none did.
func (c *capture) firstAt() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.first
}

// body returns the kept copy as a record's body, and gives the buffer
// back: the body holds its own copy.
func (c *capture) body(contentType, encoding string) Body {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.release()
	b := Body{Bytes: c.n, SHA256: hex.EncodeToString(c.sum.Sum(nil)), Truncated: c.n > int64(len(c.buf)), Encoding: encoding, ContentType: mediaType(contentType)}
	data := c.buf
	switch encoding {
	case "", "identity":
	case "gzip", "deflate":
		// The copy is decoded for reading; Bytes and SHA256 stay those of
		// the compressed bytes that crossed the wire.
		if b.Truncated {
			return b
		}
		plain, ok := decompress(encoding, c.buf, c.max)
		if !ok {
			return b
		}
		data = plain
	default:
		return b // a coding the proxy does not read (br, zstd): size and hash only
	}
	switch {
	case b.Truncated:
		b.Text = validPrefix(data)
	case utf8.Valid(data):
		b.Text = string(data)
	default:
		b.Base64 = base64.StdEncoding.EncodeToString(data)
	}
	return b
}

// decompress decodes a gzip or deflate body of at most max bytes decoded.
func decompress(encoding string, buf []byte, max int64) ([]byte, bool) {
	var r io.Reader
	if encoding == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(buf))
		if err != nil {
			return nil, false
		}
		r = zr
	} else {
		r = flate.NewReader(bytes.NewReader(buf))
	}
	out, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil || int64(len(out)) > max {
		return nil, false
	}
	return out, true
}

// validPrefix is buf as text, cut before an incomplete last rune and with
// invalid bytes replaced, so that the record stays valid JSON.
func validPrefix(buf []byte) string {
	for i := 1; i <= utf8.UTFMax && i <= len(buf); i++ {
		if utf8.RuneStart(buf[len(buf)-i]) {
			if !utf8.FullRune(buf[len(buf)-i:]) {
				buf = buf[:len(buf)-i]
			}
			break
		}
	}
	return strings.ToValidUTF8(string(buf), "\uFFFD")
}

func mediaType(ct string) string {
	t, _, _ := strings.Cut(ct, ";")
	return strings.TrimSpace(t)
}

// teeBody passes a body through, noting every byte in a capture, and
// whether it was read to its end.
//
// A body whose length is known ends at that length without another read
// of the body underneath. The HTTP transport that forwards an agent's
// request reads once more after the last byte (to catch a body longer than
// it said), and by then the upstream may have answered and the proxy
// passed the first chunk on: the server has closed the agent's request
// body, that read fails, and the transport drops the upstream connection
// in the middle of its response.
type teeBody struct {
	io.ReadCloser
	c *capture
	// left counts the bytes still to come, or is -1 when the length is
	// not known.
	left int64
}

func newTeeBody(body io.ReadCloser, c *capture, length int64) *teeBody {
	if length < 0 {
		length = -1
	}
	return &teeBody{ReadCloser: body, c: c, left: length}
}

func (t *teeBody) Read(p []byte) (int, error) {
	if t.left == 0 {
		t.c.end()
		return 0, io.EOF
	}
	if t.left > 0 && int64(len(p)) > t.left {
		p = p[:t.left]
	}
	n, err := t.ReadCloser.Read(p)
	t.c.note(p[:n])
	if t.left > 0 {
		t.left -= int64(n)
		if t.left == 0 && err == nil {
			err = io.EOF
		}
	}
	if err == io.EOF {
		t.c.end()
	}
	return n, err
}

// end notes that the body was read to its end.
func (c *capture) end() {
	c.mu.Lock()
	c.ended = true
	c.mu.Unlock()
}

// complete reports whether the body was read to its end.
func (c *capture) complete() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ended
}
