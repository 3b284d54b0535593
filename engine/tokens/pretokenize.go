package tokens

import (
	"unicode"
	"unicode/utf8"
)

// A splitter returns the end of the pre-tokenisation piece that starts at
// byte p of s (p < len(s)), or p when no alternative of the encoding's
// pattern matches there (the regular expression would skip that rune).
//
// tiktoken splits text with a regular expression before byte-pair merging.
// The expressions need backtracking (a lookahead, overlapping greedy
// classes), and a backtracking engine is slow and, on long runs of one
// character, quadratic. The splitters below are hand-written matchers of
// the same expressions, each alternative tried in the pattern's order with
// the result backtracking would give, in one forward pass: linear in the
// length of the text. FuzzSplittersMatchRegexp checks them against the
// expressions themselves, run by regexp2 as tiktoken-go runs them.
type splitter func(s string, p int) int

// Rune classes, as bits. The expressions' \s is Go's unicode.IsSpace
// (regexp2 uses it), \p{L} and \p{N} Go's Unicode tables.
const (
	clsL     uint8 = 1 << iota // \p{L}
	clsN                       // \p{N}
	clsSpace                   // \s
	clsNL                      // \r or \n
	clsUpper                   // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]: o200k's leading class
	clsLower                   // [\p{Ll}\p{Lm}\p{Lo}\p{M}]: o200k's trailing class
)

// asciiClass holds the classes of the ASCII runes.
var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for r := rune(0); r < utf8.RuneSelf; r++ {
		t[r] = classOf(r)
	}
	return t
}()

func classOf(r rune) uint8 {
	var c uint8
	if unicode.IsLetter(r) {
		c |= clsL
	}
	if unicode.IsNumber(r) {
		c |= clsN
	}
	if unicode.IsSpace(r) {
		c |= clsSpace
	}
	if r == '\r' || r == '\n' {
		c |= clsNL
	}
	mark := unicode.IsMark(r)
	mid := unicode.In(r, unicode.Lm, unicode.Lo) || mark
	if mid || unicode.In(r, unicode.Lu, unicode.Lt) {
		c |= clsUpper
	}
	if mid || unicode.Is(unicode.Ll, r) {
		c |= clsLower
	}
	return c
}

// at returns the rune at byte i of s, its size and its classes. Invalid
// UTF-8 never reaches a splitter (see sanitizeUTF8).
func at(s string, i int) (rune, int, uint8) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1, asciiClass[c]
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return r, n, classOf(r)
}

// scan returns the end of the run of runes from byte i that have any of
// the classes in want.
func scan(s string, i int, want uint8) int {
	for i < len(s) {
		_, n, c := at(s, i)
		if c&want == 0 {
			break
		}
		i += n
	}
	return i
}

// other reports a rune of [^\s\p{L}\p{N}].
func other(c uint8) bool { return c&(clsSpace|clsL|clsN) == 0 }

// prefix reports a rune of [^\r\n\p{L}\p{N}].
func prefix(c uint8) bool { return c&(clsNL|clsL|clsN) == 0 }

// contraction returns the end of (?i:'s|'t|'re|'ve|'m|'ll|'d) at i, or i.
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return i
	}
	switch s[i+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return i + 3
		}
	case 'l':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return i + 3
		}
	}
	return i
}

// digits returns the end of \p{N}{1,3} at i, or i.
func digits(s string, i int) int {
	for k := 0; k < 3 && i < len(s); k++ {
		_, n, c := at(s, i)
		if c&clsN == 0 {
			break
		}
		i += n
	}
	return i
}

// punctuation returns the end of " ?[^\s\p{L}\p{N}]+[tail]*" at i, or i.
func punctuation(s string, i int, tail func(byte) bool) int {
	q := i
	if s[i] == ' ' && i+1 < len(s) {
		if _, _, c := at(s, i+1); other(c) {
			q = i + 1
		}
	}
	end := q
	for end < len(s) {
		_, n, c := at(s, end)
		if !other(c) {
			break
		}
		end += n
	}
	if end == q {
		return i
	}
	for end < len(s) && tail(s[end]) {
		end++
	}
	return end
}

// whitespace returns the end of the first of \s*[\r\n]+, \s+(?!\S) and
// \s+ that matches at i, or i.
func whitespace(s string, i int) int {
	q := i
	lastNL, lastSize := -1, 0
	for q < len(s) {
		_, n, c := at(s, q)
		if c&clsSpace == 0 {
			break
		}
		if c&clsNL != 0 {
			lastNL = q
		}
		lastSize = n
		q += n
	}
	switch {
	case q == i:
		return i
	case lastNL >= 0: // \s*[\r\n]+ up to the last line break of the run
		return lastNL + 1
	case q == len(s): // \s+(?!\S) at the end of the text
		return q
	case q-lastSize > i: // \s+(?!\S): the run less its last rune
		return q - lastSize
	}
	return q // \s+
}

func isNL(b byte) bool        { return b == '\r' || b == '\n' }
func isNLOrSlash(b byte) bool { return b == '\r' || b == '\n' || b == '/' }

// splitCl100k matches cl100k_base's pattern:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//	 ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
func splitCl100k(s string, p int) int {
	if e := contraction(s, p); e > p {
		return e
	}
	_, n0, c0 := at(s, p)
	if c0&clsL != 0 {
		return scan(s, p, clsL)
	}
	if prefix(c0) && p+n0 < len(s) {
		if _, _, c1 := at(s, p+n0); c1&clsL != 0 {
			return scan(s, p+n0, clsL)
		}
	}
	if e := digits(s, p); e > p {
		return e
	}
	if e := punctuation(s, p, isNL); e > p {
		return e
	}
	return whitespace(s, p)
}

// splitO200k matches o200k_base's pattern:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//	\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
func splitO200k(s string, p int) int {
	_, n0, c0 := at(s, p)
	withPrefix := prefix(c0) && p+n0 < len(s)
	for _, word := range [2]func(string, int) int{lowerWord, upperWord} {
		if withPrefix {
			if e := word(s, p+n0); e > p+n0 {
				return contraction(s, e)
			}
		}
		if e := word(s, p); e > p {
			return contraction(s, e)
		}
	}
	if e := digits(s, p); e > p {
		return e
	}
	if e := punctuation(s, p, isNLOrSlash); e > p {
		return e
	}
	return whitespace(s, p)
}

// lowerWord returns the end of [Upper]*[Lower]+ at i, or i: the greedy
// upper run, then the lower run after it, or, when none follows, the run
// given back up to its last rune that is also of the lower class.
func lowerWord(s string, i int) int {
	u := i
	lastLower := -1
	for u < len(s) {
		_, n, c := at(s, u)
		if c&clsUpper == 0 {
			break
		}
		u += n
		if c&clsLower != 0 {
			lastLower = u
		}
	}
	if u < len(s) {
		if _, _, c := at(s, u); c&clsLower != 0 {
			return scan(s, u, clsLower)
		}
	}
	if lastLower > i {
		return lastLower
	}
	return i
}

// upperWord returns the end of [Upper]+[Lower]* at i, or i.
func upperWord(s string, i int) int {
	u := scan(s, i, clsUpper)
	if u == i {
		return i
	}
	return scan(s, u, clsLower)
}
