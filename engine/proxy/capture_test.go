package proxy

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// closedAfter is a request body as the HTTP server hands it over once the
// handler has started its response: the bytes that came, then an error
// for any further read.
type closedAfter struct {
	r    io.Reader
	more int // reads after the bytes ran out
}

func (c *closedAfter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err == io.EOF {
		c.more++
		return n, errors.New("http: invalid Read on closed Body")
	}
	return n, err
}

func (c *closedAfter) Close() error { return nil }

// TestTeeBodyEndsAtItsLength reads bodies through teeBody the way the
// transport forwarding a request does (to its end, then once more): a
// body of known length ends there without another read of the body
// underneath, which the server may have closed meanwhile; one of unknown
// length is read until the body itself ends.
func TestTeeBodyEndsAtItsLength(t *testing.T) {
	const text = "{\"model\":\"m\",\"messages\":[]}"
	for _, tc := range []struct {
		name      string
		length    int64
		wantErr   bool
		wantReads int
	}{
		{"known length", int64(len(text)), false, 0},
		{"unknown length", -1, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			under := &closedAfter{r: strings.NewReader(text)}
			c := newCapture(1 << 20)
			body := newTeeBody(under, c, tc.length)
			got, err := io.ReadAll(body)
			if string(got) != text || (err != nil) != tc.wantErr {
				t.Fatalf("read %q, %v", got, err)
			}
			if n, err := body.Read(make([]byte, 8)); tc.length >= 0 && (n != 0 || err != io.EOF) {
				t.Errorf("a read after the end gave %d, %v; want 0, EOF", n, err)
			}
			if tc.length >= 0 && under.more != tc.wantReads {
				t.Errorf("the body underneath was read %d times after its end", under.more)
			}
			if c.complete() != !tc.wantErr || c.n != int64(len(text)) {
				t.Errorf("capture complete=%v with %d bytes", c.complete(), c.n)
			}
		})
	}
}
