package search

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func terms(in string) []string {
	var out []string
	for _, t := range (CodeTokenizer{}).Tokenize([]byte(in)) {
		out = append(out, string(t.Term)+"@"+itoa(t.Position))
	}
	return out
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestCodeTokenizer(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"context-filter.ts", []string{"context-filter.ts@1", "context@1", "filter@2", "ts@3"}},
		{"filterContext()", []string{"filterContext@1", "filter@1", "Context@2"}},
		{"snake_case value", []string{"snake_case@1", "snake@1", "case@2", "value@3"}},
		{"src/context-filter.ts:42", []string{"src/context-filter.ts:42@1", "context-filter.ts:42@2", "src@1", "context@2", "filter@3", "ts@4", "42@5"}},
		{"HTTPServer v2.6.1", []string{"HTTPServer@1", "HTTP@1", "Server@2", "v2.6.1@3", "v2@3", "6@4", "1@5"}},
		{"Run it, please.", []string{"Run@1", "it@2", "please@3"}},
		{"--flag ../x", []string{"flag@1", "x@2"}},
		{"día_über", []string{"día_über@1", "día@1", "über@2"}},
		{"/repo/src/core/session.go", []string{"repo/src/core/session.go@1", "src/core/session.go@2", "core/session.go@3", "session.go@4",
			"repo@1", "src@2", "core@3", "session@4", "go@5"}},
		{"", nil},
		{"... --- ///", nil},
	}
	for _, tc := range tests {
		if got := terms(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got  %v\n want %v", tc.in, got, tc.want)
		}
	}
}

func TestCodeQueryTokenizer(t *testing.T) {
	got := []string{}
	for _, tok := range (CodeQueryTokenizer{}).Tokenize([]byte("loadSessionFromEntries type core/session.go x")) {
		got = append(got, string(tok.Term)+"@"+itoa(tok.Position))
	}
	want := []string{"loadSessionFromEntries@1", "type@5", "core/session.go@6", "x@9"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// FuzzCodeTokenizer checks, on any input, that every token is the exact
// slice of the input at its offsets and that positions never go back
// among atomic parts.
func FuzzCodeTokenizer(f *testing.F) {
	for _, s := range []string{"context-filter.ts", "filterContext", "snake_case", "a/b\\c:d", "ÀÉÎõü_Ω", "\xff\xfe/x"} {
		f.Add([]byte(s))
	}
	seeds, _ := filepath.Glob("../testdata/shared/sessions/pi/*.jsonl")
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			lines := strings.Split(string(data), "\n")
			for _, line := range lines[:min(40, len(lines))] {
				f.Add([]byte(line))
			}
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		last, valid := 0, utf8.Valid(in)
		for _, tok := range (CodeTokenizer{}).Tokenize(in) {
			if tok.Start < 0 || tok.End > len(in) || tok.Start >= tok.End {
				t.Fatalf("token %q has bad offsets %d..%d", tok.Term, tok.Start, tok.End)
			}
			if string(tok.Term) != string(in[tok.Start:tok.End]) {
				t.Fatalf("token %q is not input[%d:%d]", tok.Term, tok.Start, tok.End)
			}
			if tok.Position < last-maxWholeToken || tok.Position < 1 {
				t.Fatalf("position %d after %d", tok.Position, last)
			}
			if valid && !utf8.Valid(tok.Term) {
				t.Fatalf("token %q splits a rune", tok.Term)
			}
			last = tok.Position
		}
	})
}
