package store

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// NormalizeUserName returns the form a user name is stored and compared
// in: NFKC, case-folded, so that "ANN", "ann" and "ａｎｎ" (full width) are one
// name. It refuses a name that is not 1 to 64 letters, digits and . _ - @
// after that, and one whose letters are of more than one script ("аnn"
// with a Cyrillic a): a name that mixes scripts is how one user is made to
// look like another.
func NormalizeUserName(name string) (string, error) {
	n := norm.NFKC.String(cases.Fold().String(norm.NFKC.String(strings.TrimSpace(name))))
	if c := utf8.RuneCountInString(n); c < 1 || c > 64 {
		return "", fmt.Errorf("user name %q: 1 to 64 letters, digits and . _ - @", name)
	}
	script := ""
	for _, r := range n {
		switch {
		case unicode.IsLetter(r):
			s := scriptOf(r)
			if script != "" && s != script {
				return "", fmt.Errorf("user name %q mixes letters of two scripts (%s and %s)", name, script, s)
			}
			script = s
		case unicode.IsDigit(r) && r < utf8.RuneSelf, strings.ContainsRune("._-@", r):
		default:
			return "", fmt.Errorf("user name %q: 1 to 64 letters, digits and . _ - @", name)
		}
	}
	return n, nil
}

// scriptOf names the Unicode script of the letter r, "" when no table
// has it.
func scriptOf(r rune) string {
	for _, s := range commonScripts {
		if unicode.Is(unicode.Scripts[s], r) {
			return s
		}
	}
	for name, table := range unicode.Scripts {
		if unicode.Is(table, r) {
			return name
		}
	}
	return ""
}

// commonScripts are tried first, in order: almost every name is in one
// of them.
var commonScripts = []string{"Latin", "Cyrillic", "Greek", "Han", "Hiragana", "Katakana", "Hangul", "Arabic", "Hebrew", "Devanagari"}
