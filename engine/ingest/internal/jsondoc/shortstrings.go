package jsondoc

import "io"

// maxShortString is how much of each string literal an outline reads:
// longer ones are emptied in the outline anyway, and keys are shorter.
const maxShortString = 4 << 10

// shortStrings passes JSON through with every string literal cut to its
// first maxShortString bytes (never inside an escape), so that a decoder
// reading an outline never holds a long string: a 200 MB first value
// was read into the decoder's buffer and then into a string, twice its
// size, to learn the keys around it. What it passes is valid JSON when
// its input is; a rune cut in two reads as U+FFFD.
type shortStrings struct {
	r io.Reader

	inString bool
	inEscape bool // after a backslash
	hexLeft  int  // hex digits of a \u escape still to come
	keep     bool // whether the current escape is passed on
	n        int  // bytes of the current string passed on
}

func (s *shortStrings) Read(p []byte) (int, error) {
	for {
		n, err := s.r.Read(p)
		out := 0
		for _, c := range p[:n] {
			if s.pass(c) {
				p[out] = c
				out++
			}
		}
		// A read whose bytes were all cut is not a reader's answer.
		if out > 0 || err != nil {
			return out, err
		}
	}
}

// pass reports whether byte c goes on, and follows the string state.
func (s *shortStrings) pass(c byte) bool {
	switch {
	case !s.inString:
		if c == '"' {
			s.inString, s.n = true, 0
		}
		return true
	case s.hexLeft > 0:
		s.hexLeft--
		return s.keep
	case s.inEscape:
		s.inEscape = false
		if c == 'u' {
			s.hexLeft = 4
		}
		return s.keep
	case c == '\\':
		s.inEscape, s.keep = true, s.n < maxShortString
		if s.keep {
			s.n++
		}
		return s.keep
	case c == '"':
		s.inString = false
		return true
	case s.n < maxShortString:
		s.n++
		return true
	}
	return false
}
