package search

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFlattenJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"path":"src/a.ts","oldText":"x","n":3}`, "src/a.ts\nx\n3\n"},
		{`{"edits":[{"old":"a","new":"b"}],"ok":true,"z":null}`, "a\nb\n"},
		{`["x",{"k":{"kk":"deep"}},"y"]`, "x\ndeep\ny\n"},
		{`not json`, "not json"},
		{``, ""},
	}
	for _, tc := range tests {
		if got := flattenJSON(json.RawMessage(tc.in)); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzFlattenJSON checks that flattening never panics and keeps every
// string value of valid JSON.
func FuzzFlattenJSON(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, `[1,"x",{"y":["z"]}]`, `{"command":"grep -rn \"x\" src/"}`, `"s"`, `{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := flattenJSON(json.RawMessage(in))
		var v any
		if json.Unmarshal([]byte(in), &v) != nil {
			return
		}
		var check func(any)
		check = func(v any) {
			switch x := v.(type) {
			case string:
				if !strings.Contains(out, x) {
					t.Fatalf("%s: value %q missing from %q", in, x, out)
				}
			case []any:
				for _, e := range x {
					check(e)
				}
			case map[string]any:
				for _, e := range x {
					check(e)
				}
			}
		}
		check(v)
	})
}
