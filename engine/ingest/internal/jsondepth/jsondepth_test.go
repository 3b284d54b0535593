package jsondepth

import (
	"errors"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct {
		name, in string
		limit    int
		line     int // 0: accepted
	}{
		{"flat", `{"a":1,"b":[1,2]}`, 2, 0},
		{"at the limit", deep(5), 5, 0},
		{"one past", deep(6), 5, 1},
		{"brackets in strings do not count", `{"a":"[[[[[[[[{{{{"}`, 2, 0},
		{"an escaped quote does not end a string", `{"a":"\"[[[[[["}`, 2, 0},
		{"an escaped backslash ends before the quote", `{"a":"\\"}` + "\n" + deep(4), 3, 2},
		{"depth is per value, not cumulative", deep(3) + deep(3) + deep(3), 3, 0},
		{"the line is told", "{\n\"a\":\n" + deep(10) + "}", 4, 3},
		{"a million levels", strings.Repeat(`{"a":`, 1_000_000), Max, 1},
	} {
		err := Check([]byte(tc.in), tc.limit)
		var de *Error
		switch {
		case tc.line == 0 && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.line != 0 && (!errors.As(err, &de) || de.Line != tc.line || de.Limit != tc.limit):
			t.Errorf("%s: %v, want an error at line %d", tc.name, err, tc.line)
		}
	}
}

func FuzzCheck(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"[\"]"}]}`), 3)
	f.Add([]byte(strings.Repeat("[", 50)), 10)
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		if limit < 0 || limit > 100 {
			return
		}
		err := Check(data, limit)
		var de *Error
		if err != nil && (!errors.As(err, &de) || de.Offset >= len(data) || (data[de.Offset] != '[' && data[de.Offset] != '{')) {
			t.Fatalf("Check: %v", err)
		}
	})
}
