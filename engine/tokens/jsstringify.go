package tokens

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// JSStringify re-serializes a JSON value the way JavaScript's
// JSON.stringify(JSON.parse(raw)) would: no whitespace, keys in their
// original order, no HTML escaping, U+2028 and U+2029 literal, numbers in
// JavaScript's shortest form, and lone surrogates escaped as \uXXXX.
//
// The reference heuristic measures tool-call arguments this way, so the
// length of the result is what it counts. Two differences from JavaScript
// remain and are documented rather than emulated: a key that appears twice
// is written twice (JavaScript keeps the last value once), and integer-like
// keys keep their position (JavaScript moves them first); neither changes
// the length except the first. Empty or invalid input yields "".
func JSStringify(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(len(raw))
	p := jsonPrinter{src: raw, out: &b}
	if !p.value() {
		return ""
	}
	return b.String()
}

type jsonPrinter struct {
	src []byte
	pos int
	out *strings.Builder
}

func (p *jsonPrinter) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonPrinter) value() bool {
	p.skipSpace()
	if p.pos >= len(p.src) {
		return false
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.container('{', '}', true)
	case c == '[':
		return p.container('[', ']', false)
	case c == '"':
		return p.str()
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.literal("null")
	default:
		return p.number()
	}
}

func (p *jsonPrinter) container(open, close byte, object bool) bool {
	p.pos++
	p.out.WriteByte(open)
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == close {
		p.pos++
		p.out.WriteByte(close)
		return true
	}
	for {
		if object {
			p.skipSpace()
			if p.pos >= len(p.src) || p.src[p.pos] != '"' || !p.str() {
				return false
			}
			p.skipSpace()
			if p.pos >= len(p.src) || p.src[p.pos] != ':' {
				return false
			}
			p.pos++
			p.out.WriteByte(':')
		}
		if !p.value() {
			return false
		}
		p.skipSpace()
		if p.pos >= len(p.src) {
			return false
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			p.out.WriteByte(',')
		case close:
			p.pos++
			p.out.WriteByte(close)
			return true
		default:
			return false
		}
	}
}

func (p *jsonPrinter) literal(word string) bool {
	if !strings.HasPrefix(string(p.src[p.pos:min(len(p.src), p.pos+len(word))]), word) {
		return false
	}
	p.pos += len(word)
	p.out.WriteString(word)
	return true
}

func (p *jsonPrinter) number() bool {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			p.pos++
			continue
		}
		break
	}
	f, err := strconv.ParseFloat(string(p.src[start:p.pos]), 64)
	if err != nil && !isRangeErr(err) {
		return false
	}
	p.out.WriteString(JSNumber(f))
	return true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// str copies a JSON string, re-escaping it as JSON.stringify does.
func (p *jsonPrinter) str() bool {
	p.pos++ // opening quote
	p.out.WriteByte('"')
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			p.out.WriteByte('"')
			return true
		case c == '\\':
			if !p.escape() {
				return false
			}
		case c < 0x20:
			p.pos++
			writeControl(p.out, rune(c))
		case c < utf8.RuneSelf:
			p.pos++
			p.out.WriteByte(c)
		default:
			r, size := utf8.DecodeRune(p.src[p.pos:])
			p.pos += size
			p.out.WriteRune(r) // invalid bytes become U+FFFD, as JSON.parse would decode them
		}
	}
	return false
}

// escape handles one backslash escape at p.pos.
func (p *jsonPrinter) escape() bool {
	if p.pos+1 >= len(p.src) {
		return false
	}
	e := p.src[p.pos+1]
	p.pos += 2
	switch e {
	case '"':
		p.out.WriteString(`\"`)
	case '\\':
		p.out.WriteString(`\\`)
	case '/':
		p.out.WriteByte('/')
	case 'b':
		p.out.WriteString(`\b`)
	case 'f':
		p.out.WriteString(`\f`)
	case 'n':
		p.out.WriteString(`\n`)
	case 'r':
		p.out.WriteString(`\r`)
	case 't':
		p.out.WriteString(`\t`)
	case 'u':
		u, ok := p.hex4()
		if !ok {
			return false
		}
		switch {
		case u >= 0xD800 && u < 0xDC00:
			// A high surrogate: a pair if a low surrogate escape follows.
			if lo, ok := p.peekLowSurrogate(); ok {
				p.pos += 6
				p.out.WriteRune(rune(0x10000 + (u-0xD800)<<10 + (lo - 0xDC00)))
			} else {
				writeLoneSurrogate(p.out, u)
			}
		case u >= 0xDC00 && u < 0xE000:
			writeLoneSurrogate(p.out, u)
		case u < 0x20:
			writeControl(p.out, rune(u))
		case u == '"':
			p.out.WriteString(`\"`)
		case u == '\\':
			p.out.WriteString(`\\`)
		default:
			p.out.WriteRune(rune(u))
		}
	default:
		return false
	}
	return true
}

func (p *jsonPrinter) hex4() (int, bool) {
	if p.pos+4 > len(p.src) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.src[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.pos += 4
	return int(v), true
}

func (p *jsonPrinter) peekLowSurrogate() (int, bool) {
	if p.pos+6 > len(p.src) || p.src[p.pos] != '\\' || p.src[p.pos+1] != 'u' {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.src[p.pos+2:p.pos+6]), 16, 32)
	if err != nil || v < 0xDC00 || v >= 0xE000 {
		return 0, false
	}
	return int(v), true
}

func writeControl(b *strings.Builder, r rune) {
	switch r {
	case '\b':
		b.WriteString(`\b`)
	case '\f':
		b.WriteString(`\f`)
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	default:
		b.WriteString(`\u00`)
		b.WriteByte(hexDigit(byte(r) >> 4))
		b.WriteByte(hexDigit(byte(r) & 0xF))
	}
}

// writeLoneSurrogate writes \uXXXX in lower case, as JSON.stringify does
// for unpaired surrogates.
func writeLoneSurrogate(b *strings.Builder, u int) {
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigit(byte(u >> shift & 0xF)))
	}
}

func hexDigit(v byte) byte { return "0123456789abcdef"[v] }

// JSNumber formats f as JavaScript's Number.prototype.toString does.
func JSNumber(f float64) string {
	if f == 0 {
		return "0" // also -0
	}
	if f != f {
		return "null"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	if f > 1.7976931348623157e308 {
		return "null" // JSON.stringify writes Infinity as null
	}
	// Shortest round-trip digits and the decimal exponent n such that
	// f = 0.d1d2...dk × 10^n.
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, expStr, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expStr)
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	expSign := "+"
	if n-1 < 0 {
		expSign = "-"
	}
	frac := ""
	if k > 1 {
		frac = "." + digits[1:]
	}
	return sign + digits[:1] + frac + "e" + expSign + strconv.Itoa(abs(n-1))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
