package jsonl

import (
	"errors"
	"io"
	"strings"
	"testing"
)

type line struct {
	n       int
	text    string
	partial bool
	err     bool
}

func readAll(t *testing.T, in string, max int) []line {
	t.Helper()
	r := NewReader(strings.NewReader(in), max)
	var out []line
	for {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			if !errors.Is(err, ErrTooLong) {
				t.Fatal(err)
			}
			out = append(out, line{n: r.Line(), err: true})
			continue
		}
		out = append(out, line{n: r.Line(), text: string(b), partial: r.Partial()})
	}
}

func TestReader(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want []line
	}{
		{"plain", "a\nb\n", 0, []line{{1, "a", false, false}, {2, "b", false, false}}},
		{"crlf and blank lines counted", "a\r\n\r\n\nb\r\n", 0, []line{{1, "a", false, false}, {4, "b", false, false}}},
		{"partial last line", "a\nbc", 0, []line{{1, "a", false, false}, {2, "bc", true, false}}},
		{"too long is skipped, reading goes on", "ok\n" + strings.Repeat("x", 100) + "\nnext\n", 10,
			[]line{{1, "ok", false, false}, {2, "", false, true}, {3, "next", false, false}}},
		{"too long at the end without newline", "ok\n" + strings.Repeat("x", 100), 10, []line{{1, "ok", false, false}, {2, "", false, true}}},
		{"empty", "", 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := readAll(t, tc.in, tc.max)
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("line %d: got %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestReaderLongLinesWithinLimit(t *testing.T) {
	long := strings.Repeat("y", 3<<20) // longer than the 64 KiB buffer
	got := readAll(t, "a\n"+long+"\nb\n", 0)
	if len(got) != 3 || len(got[1].text) != len(long) || got[2].n != 3 {
		t.Fatalf("got %d lines", len(got))
	}
}

func TestReaderOffset(t *testing.T) {
	r := NewReader(strings.NewReader("ab\ncde\nf"), 0)
	var offs []int64
	for {
		if _, err := r.Next(); err != nil {
			break
		}
		offs = append(offs, r.Offset())
	}
	if len(offs) != 3 || offs[0] != 3 || offs[1] != 7 || offs[2] != 8 {
		t.Fatalf("offsets %v, want [3 7 8]", offs)
	}
}
