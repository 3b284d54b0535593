package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"ctxscope/engine/tokens"
)

// jsKind is the JavaScript type of a parsed JSON value.
type jsKind uint8

const (
	jsNull jsKind = iota
	jsBool
	jsNumber
	jsString
	jsArray
	jsObject
)

// jsValue is a JSON value parsed the way JavaScript's JSON.parse sees it:
// object keys keep their first position and a repeated key takes the last
// value. It exists so that delimiter arguments can be validated, coerced and
// printed back exactly as the reference does.
type jsValue struct {
	kind jsKind
	b    bool
	num  string // the number's JavaScript text, e.g. "1e+21"
	str  string
	arr  []*jsValue
	keys []string
	vals map[string]*jsValue
}

// parseJS parses raw JSON. Empty input is an error.
func parseJS(raw []byte) (*jsValue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeJS(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return v, nil
}

func decodeJS(dec *json.Decoder) (*jsValue, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &jsValue{kind: jsNull}, nil
	case bool:
		return &jsValue{kind: jsBool, b: t}, nil
	case json.Number:
		f, err := t.Float64()
		if err != nil && !isRange(err) {
			return nil, err
		}
		return &jsValue{kind: jsNumber, num: tokens.JSNumber(f)}, nil
	case string:
		return &jsValue{kind: jsString, str: t}, nil
	case json.Delim:
		if t == '[' {
			return decodeArray(dec)
		}
		return decodeObject(dec)
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

func decodeArray(dec *json.Decoder) (*jsValue, error) {
	v := &jsValue{kind: jsArray}
	for dec.More() {
		e, err := decodeJS(dec)
		if err != nil {
			return nil, err
		}
		v.arr = append(v.arr, e)
	}
	_, err := dec.Token()
	return v, err
}

// decodeObject keeps each key at its first position with its last value,
// as JSON.parse does.
func decodeObject(dec *json.Decoder) (*jsValue, error) {
	v := &jsValue{kind: jsObject, vals: map[string]*jsValue{}}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := kt.(string)
		e, err := decodeJS(dec)
		if err != nil {
			return nil, err
		}
		if _, dup := v.vals[k]; !dup {
			v.keys = append(v.keys, k)
		}
		v.vals[k] = e
	}
	_, err := dec.Token()
	return v, err
}

func isRange(err error) bool { return errors.Is(err, strconv.ErrRange) }

// get returns the value of an object's key, or nil.
func (v *jsValue) get(key string) *jsValue {
	if v == nil || v.kind != jsObject {
		return nil
	}
	return v.vals[key]
}

// coerceString applies AJV's coerceTypes rule for a "string" schema: a
// number, boolean or null becomes its JavaScript string (null becomes "").
// It reports whether v now is a string.
func (v *jsValue) coerceString() bool {
	switch v.kind {
	case jsString:
		return true
	case jsNumber:
		v.kind, v.str = jsString, v.num
	case jsBool:
		v.kind, v.str = jsString, fmt.Sprint(v.b)
	case jsNull:
		v.kind, v.str = jsString, ""
	default:
		return false
	}
	return true
}

// pretty writes v as JSON.stringify(v, null, 2) does.
func (v *jsValue) pretty(b *strings.Builder, indent string) {
	switch v.kind {
	case jsNull:
		b.WriteString("null")
	case jsBool:
		fmt.Fprint(b, v.b)
	case jsNumber:
		b.WriteString(v.num)
	case jsString:
		writeJSString(b, v.str)
	case jsArray:
		if len(v.arr) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[")
		for i, e := range v.arr {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n" + indent + "  ")
			e.pretty(b, indent+"  ")
		}
		b.WriteString("\n" + indent + "]")
	case jsObject:
		if len(v.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{")
		for i, k := range v.keys {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n" + indent + "  ")
			writeJSString(b, k)
			b.WriteString(": ")
			v.vals[k].pretty(b, indent+"  ")
		}
		b.WriteString("\n" + indent + "}")
	}
}

// writeJSString writes s quoted as JSON.stringify does: only the quote,
// the backslash and control characters are escaped.
func writeJSString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
