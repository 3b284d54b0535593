package norm

import (
	"strings"
	"testing"
)

func TestClipRunes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"", 5, ""},
		{"abc", 5, "abc"},
		{"abcde", 5, "abcde"},
		{"abcdef", 5, "abcd…"},
		{"äöüßéè", 5, "äöüß…"},
		{"日本語のテキスト", 3, "日本…"},
		{strings.Repeat("x", 1<<20), 80, strings.Repeat("x", 79) + "…"},
	} {
		if got := ClipRunes(tc.in, tc.n); got != tc.want {
			t.Errorf("ClipRunes(%.20q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

// TestClipRunesReadsNoFurther checks that clipping a long text allocates
// only what it keeps.
func TestClipRunesReadsNoFurther(t *testing.T) {
	long := strings.Repeat("é", 10<<20)
	if a := testing.AllocsPerRun(5, func() { ClipRunes(long, 80) }); a > 1 {
		t.Errorf("%v allocations", a)
	}
}
