package jsonl

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReader checks the line reader on any input and any record limit:
// no panic, offsets that only grow and stay within the input, and lines
// that are the input's own lines.
func FuzzReader(f *testing.F) {
	files, _ := filepath.Glob("../../../testdata/shared/sessions/*/*.jsonl")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data[:min(len(data), 8<<10)], 200)
		}
	}
	f.Add([]byte("a\r\n\n\nbb\nccc"), 2)
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		if max < 1 || max > 1<<16 {
			max = 1 << 16
		}
		r := NewReader(bytes.NewReader(data), max)
		var last int64
		for {
			line, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if r.Offset() < last || r.Offset() > int64(len(data)) {
				t.Fatalf("offset %d after %d, input %d bytes", r.Offset(), last, len(data))
			}
			last = r.Offset()
			if errors.Is(err, ErrTooLong) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(line) > max || !bytes.Contains(data, line) || bytes.IndexByte(line, '\n') >= 0 {
				t.Fatalf("line %q is not a line of the input within %d bytes", line, max)
			}
		}
		if r.Offset() != int64(len(data)) {
			t.Fatalf("stopped at %d of %d bytes", r.Offset(), len(data))
		}
	})
}
