package cli

import (
	"encoding/json"
	"io"
	"strings"
	"unicode"
)

// writeJSON writes v as indented JSON without HTML escaping, so that
// session text reads as written.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// oneLine flattens s to one line for terminal output: whitespace runs
// become one space and control characters become U+FFFD, so that session
// text cannot move the cursor or recolour the terminal. It is cut to n
// runes with an ellipsis when n > 0.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '\uFFFD'
		}
		return r
	}, s)
	if r := []rune(s); n > 0 && len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}
