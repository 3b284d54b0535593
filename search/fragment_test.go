package search

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFragments(t *testing.T) {
	long := strings.Repeat("word ", 200)
	crowded := long[:400] + "getLatestCompactionEntry" + long[:400] + "to" + long[:400] + "to" + long[:400] + "to"
	tests := []struct {
		name      string
		text      string
		spans     []Span
		fragments int
		marked    []string // the marked texts, in order
	}{
		{"no text", "", nil, 0, nil},
		{"no match shows the start", long, nil, 1, nil},
		{"one match", "call filterContext here", []Span{{5, 18}}, 1, []string{"filterContext"}},
		{"out-of-range span ignored", "short", []Span{{2, 99}}, 1, nil},
		{"multibyte text is not split", strings.Repeat("é", 300) + "needle", []Span{{600, 606}}, 1, []string{"needle"}},
		{"far matches get separate fragments", "alpha " + long + "omega", []Span{{0, 5}, {1006, 1011}}, 2, []string{"alpha", "omega"}},
		{"the longest match wins a slot", crowded, []Span{{824, 826}, {1226, 1228}, {1628, 1630}, {400, 424}}, 3,
			[]string{"getLatestCompactionEntry", "to", "to"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := fragments(tc.text, tc.spans)
			if len(fs) != tc.fragments {
				t.Fatalf("%d fragments, want %d: %+v", len(fs), tc.fragments, fs)
			}
			var marked []string
			for _, f := range fs {
				if !utf8.ValidString(f.Text) || tc.text[f.Start:f.Start+len(f.Text)] != f.Text {
					t.Fatalf("fragment %q is not valid text at its offset", f.Text)
				}
				for _, m := range f.Marks {
					marked = append(marked, f.Text[m.Start:m.End])
				}
			}
			if strings.Join(marked, "|") != strings.Join(tc.marked, "|") {
				t.Errorf("marked %q, want %q", marked, tc.marked)
			}
		})
	}
}
