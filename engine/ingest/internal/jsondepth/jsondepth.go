// Package jsondepth bounds how deeply JSON from an untrusted source may
// nest, before a parser that recurses per level sees it. The standard
// library stops at 10,000 levels and valyala/fastjson at 300, but the
// OpenTelemetry collector's OTLP/JSON decoder recurses without a limit:
// a 146 KB gzipped export nested 2.3 million levels deep ended the
// process with a stack overflow, which Go cannot recover. A scan of the
// bytes, linear and allocation-free, refuses such input first.
package jsondepth

import "fmt"

// Max is the nesting depth of objects and arrays accepted by the readers
// of untrusted JSON that use [Check]. The deepest real OTLP export seen
// (structured GenAI messages as attribute values) nests under 40 levels.
const Max = 1000

// Error reports JSON that nests deeper than allowed, and where.
type Error struct {
	Limit  int
	Line   int // 1-based, of the bracket that went past Limit
	Offset int // 0-based byte offset of that bracket
}

func (e *Error) Error() string {
	return fmt.Sprintf("line %d (byte %d): JSON nests deeper than %d levels", e.Line, e.Offset, e.Limit)
}

// Check returns an *Error when data holds objects or arrays nested more
// than limit levels deep, counting brackets outside strings. It does not
// validate data otherwise: malformed JSON is the parser's to refuse.
func Check(data []byte, limit int) error {
	depth, line := 0, 1
	inString, escaped := false, false
	for i, c := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			case c == '\n':
				line++
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			if depth++; depth > limit {
				return &Error{Limit: limit, Line: line, Offset: i}
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		case '\n':
			line++
		}
	}
	return nil
}
