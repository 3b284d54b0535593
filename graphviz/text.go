package graphviz

import (
	"strings"
	"unicode"
)

// helvetica holds the advance widths of printable ASCII (U+0020 to U+007E)
// in the Helvetica font, in thousandths of the font size, from the
// standard Adobe font metrics.
var helvetica = [95]uint16{
	278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space to /
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // 0 to 9
	278, 278, 584, 584, 584, 556, 1015, // : to @
	667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, // A to M
	722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, // N to Z
	278, 278, 278, 469, 556, 333, // [ to `
	556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, // a to m
	556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, // n to z
	334, 260, 334, 584, // { to ~
}

// runeWidth returns the advance of r in thousandths of the font size: the
// Helvetica width for ASCII, a full em for wide East Asian scripts, zero
// for combining marks and controls, and the width of a digit otherwise.
func runeWidth(r rune) int {
	switch {
	case r >= 0x20 && r <= 0x7e:
		return int(helvetica[r-0x20])
	case r < 0x20 || r == 0x7f || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.Cf, r):
		return 0
	case isWide(r):
		return 1000
	}
	return 556
}

// isWide reports whether r belongs to a script drawn a full em wide.
func isWide(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		(r >= 0xff01 && r <= 0xff60) || (r >= 0x1f300 && r <= 0x1faff)
}

// TextWidth estimates the width, in points, of a single line of s set in
// Helvetica at size fontSize. The estimate is deterministic: it depends on
// the text alone, never on the fonts installed.
func TextWidth(s string, fontSize float64) float64 {
	w := 0
	for _, r := range s {
		w += runeWidth(r)
	}
	return float64(w) * fontSize / 1000
}

// Sizing sets how node sizes follow from labels.
type Sizing struct {
	// FontSize is the label size in points; 14 when zero, as in Graphviz.
	FontSize float64
	// MinWidth and MinHeight bound the node box from below; 54 and 36
	// points (0.75 and 0.5 inch, Graphviz's defaults) when zero.
	MinWidth, MinHeight float64
	// Padding is the horizontal room on each side of the text; 8 points
	// when zero.
	Padding float64
}

func (s Sizing) withDefaults() Sizing {
	if s.FontSize <= 0 {
		s.FontSize = 14
	}
	if s.MinWidth <= 0 {
		s.MinWidth = 54
	}
	if s.MinHeight <= 0 {
		s.MinHeight = 36
	}
	if s.Padding <= 0 {
		s.Padding = 8
	}
	return s
}

// lineHeight is the distance between label baselines.
func (s Sizing) lineHeight() float64 { return s.FontSize * 1.2 }

// Size returns the width and height of the box for label, which may hold
// several lines separated by "\n".
func (s Sizing) Size(label string) (w, h float64) {
	s = s.withDefaults()
	lines := strings.Split(label, "\n")
	for _, l := range lines {
		w = max(w, TextWidth(l, s.FontSize))
	}
	w = max(s.MinWidth, w+2*s.Padding)
	h = max(s.MinHeight, float64(len(lines))*s.lineHeight()+s.FontSize)
	return w, h
}
