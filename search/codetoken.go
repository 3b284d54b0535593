package search

import (
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// CodeTokenizerName is the name under which the code-aware tokenizer is
// registered with Bleve; CodeQueryTokenizerName names its query-time
// counterpart.
const (
	CodeTokenizerName      = "ctxscope_code"
	CodeQueryTokenizerName = "ctxscope_code_query"
)

// maxWholeToken is the longest compound token kept whole, in bytes; longer
// compounds (minified code, base64) are indexed by their parts only.
const maxWholeToken = 256

func init() {
	// Bleve finds analysis components by name only through its registry.
	for name, tok := range map[string]analysis.Tokenizer{CodeTokenizerName: CodeTokenizer{}, CodeQueryTokenizerName: CodeQueryTokenizer{}} {
		if err := registry.RegisterTokenizer(name, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
			return tok, nil
		}); err != nil {
			panic(err)
		}
	}
}

// CodeTokenizer splits text the way people search code and paths. A
// compound word (letters, digits and the joiners _ . - / \ : inside a
// word) yields the compound itself, each path segment and each path
// suffix of it that is a compound too, and its atomic parts: split at the
// joiners and at camel-case humps. So "src/context-filter.ts" yields
// "src/context-filter.ts", "context-filter.ts", "src", "context",
// "filter" and "ts"; "filterContext" yields "filterContext", "filter"
// and "Context"; "snake_case" yields "snake_case", "snake" and "case".
// Atomic parts take consecutive positions, so phrases of parts match;
// a compound shares the position of its first part. Searching a whole
// compound, or the end of a path, is then a single term lookup.
type CodeTokenizer struct{}

// Tokenize implements analysis.Tokenizer.
func (CodeTokenizer) Tokenize(input []byte) analysis.TokenStream {
	var out analysis.TokenStream
	pos := 1
	for i := 0; i < len(input); {
		start, end := nextCompound(input, i)
		if start < 0 {
			break
		}
		pos = emitCompound(&out, input, start, end, pos)
		i = end
	}
	return out
}

// nextCompound finds the next compound word at or after i: a run of word
// runes and inner joiners, without leading or trailing joiners.
func nextCompound(in []byte, i int) (int, int) {
	for i < len(in) {
		r, n := utf8.DecodeRune(in[i:])
		if isWordRune(r) {
			break
		}
		i += n
	}
	if i >= len(in) {
		return -1, -1
	}
	start, end := i, i
	for i < len(in) {
		r, n := utf8.DecodeRune(in[i:])
		switch {
		case isWordRune(r):
			i += n
			end = i
		case isJoiner(r):
			i += n
		default:
			return start, end
		}
	}
	return start, end
}

// emitCompound appends the tokens of in[start:end] and returns the next
// free position.
func emitCompound(out *analysis.TokenStream, in []byte, start, end, pos int) int {
	parts := atomicParts(in, start, end)
	if len(parts) > 1 && end-start <= maxWholeToken {
		*out = append(*out, token(in, start, end, pos))
		emitSegments(out, in, start, end, parts, pos)
	}
	for k, p := range parts {
		*out = append(*out, token(in, p[0], p[1], pos+k))
	}
	return pos + len(parts)
}

// emitSegments adds the path segments and path suffixes of a compound
// that are compounds themselves, such as a file name or "core/session.go"
// in "/repo/src/core/session.go".
func emitSegments(out *analysis.TokenStream, in []byte, start, end int, parts [][2]int, pos int) {
	segStart := start
	for i := start; i <= end; i++ {
		if i < end && in[i] != '/' && in[i] != '\\' {
			continue
		}
		if i == end {
			break
		}
		s, e := trimJoiners(in, segStart, i)
		emitPiece(out, in, s, e, parts, pos, start, end)
		if s, e := trimJoiners(in, i+1, end); hasPathSep(in[s:e]) {
			emitPiece(out, in, s, e, parts, pos, start, end) // a suffix; the last segment comes below
		}
		segStart = i + 1
	}
	if segStart > start {
		s, e := trimJoiners(in, segStart, end)
		emitPiece(out, in, s, e, parts, pos, start, end)
	}
}

// emitPiece emits in[s:e], a segment or suffix of the compound
// in[start:end], when it is a compound of its own.
func emitPiece(out *analysis.TokenStream, in []byte, s, e int, parts [][2]int, pos, start, end int) {
	if s >= e || (s == start && e == end) {
		return
	}
	first := 0
	for first < len(parts) && parts[first][0] < s {
		first++
	}
	if countParts(parts, s, e) > 1 {
		*out = append(*out, token(in, s, e, pos+first))
	}
}

func hasPathSep(b []byte) bool {
	for _, c := range b {
		if c == '/' || c == '\\' {
			return true
		}
	}
	return false
}

func countParts(parts [][2]int, s, e int) int {
	n := 0
	for _, p := range parts {
		if p[0] >= s && p[1] <= e {
			n++
		}
	}
	return n
}

func trimJoiners(in []byte, s, e int) (int, int) {
	for s < e && isJoiner(rune(in[s])) {
		s++
	}
	for e > s && isJoiner(rune(in[e-1])) {
		e--
	}
	return s, e
}

// atomicParts splits a compound at joiners and camel-case humps.
func atomicParts(in []byte, start, end int) [][2]int {
	var parts [][2]int
	partStart := -1
	var prev rune
	for i := start; i < end; {
		r, n := utf8.DecodeRune(in[i:end])
		if !isWordRune(r) || r == '_' {
			if partStart >= 0 {
				parts = append(parts, [2]int{partStart, i})
			}
			partStart, prev = -1, 0
			i += n
			continue
		}
		if partStart >= 0 && isHump(prev, r, in[i+n:end]) {
			parts = append(parts, [2]int{partStart, i})
			partStart = i
		}
		if partStart < 0 {
			partStart = i
		}
		prev = r
		i += n
	}
	if partStart >= 0 {
		parts = append(parts, [2]int{partStart, end})
	}
	return parts
}

// isHump reports whether a camel-case word boundary falls before r:
// lower-to-upper ("filterContext"), or the last capital of an acronym
// followed by a lower-case letter ("HTTPServer").
func isHump(prev, r rune, rest []byte) bool {
	if !unicode.IsUpper(r) {
		return false
	}
	if unicode.IsLower(prev) || unicode.IsDigit(prev) {
		return true
	}
	if unicode.IsUpper(prev) && len(rest) > 0 {
		next, _ := utf8.DecodeRune(rest)
		return unicode.IsLower(next)
	}
	return false
}

// token returns a token whose term is a slice of the input, as Bleve's
// own tokenizers do: the lower-case filter rewrites it in place, which
// overlapping tokens survive because lower-casing twice changes nothing.
func token(in []byte, s, e, pos int) *analysis.Token {
	return &analysis.Token{Start: s, End: e, Term: in[s:e:e], Position: pos, Type: analysis.AlphaNumeric}
}

// isWordRune reports letters, digits and the underscore, which belongs
// to identifiers; the underscore still separates parts.
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// isJoiner reports the punctuation that joins a compound's parts.
func isJoiner(r rune) bool {
	switch r {
	case '.', '-', '/', '\\', ':':
		return true
	}
	return false
}

// CodeQueryTokenizer analyses query text for the code field: a compound
// word becomes the single token of the whole compound, which the
// [CodeTokenizer] indexed, and a plain word itself. Each token advances
// the position by its number of parts, so that phrases that mix compounds
// and words line up with the indexed parts.
type CodeQueryTokenizer struct{}

// Tokenize implements analysis.Tokenizer.
func (CodeQueryTokenizer) Tokenize(input []byte) analysis.TokenStream {
	var out analysis.TokenStream
	pos := 1
	for i := 0; i < len(input); {
		start, end := nextCompound(input, i)
		if start < 0 {
			break
		}
		parts := atomicParts(input, start, end)
		if len(parts) > 1 && end-start <= maxWholeToken {
			out = append(out, token(input, start, end, pos))
		} else {
			for k, p := range parts {
				out = append(out, token(input, p[0], p[1], pos+k))
			}
		}
		pos += len(parts)
		i = end
	}
	return out
}
