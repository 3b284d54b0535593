package jsondoc

import (
	"bytes"
	"encoding/json"
)

// Shape is what the first bytes of a JSON document (or of JSON Lines) tell
// of its first value, read token by token until the bytes run out: enough
// for detection to look at structure rather than at words that text
// anywhere in the head may contain.
type Shape struct {
	// Array reports a document that is an array; its first element's keys
	// are then in ElementKeys.
	Array bool
	// Keys are the keys of the first value when it is an object, in order,
	// as far as the head reaches.
	Keys []string
	// ElementKeys are the keys of the first element of an array, or of
	// the first element of the first array-valued key ArrayKey names.
	ElementKeys []string
	// Strings holds the string values of the first value's (or first
	// element's) keys, for the keys whose values are short strings.
	Strings map[string]string
}

// Has reports whether the first value has key.
func (s Shape) Has(keys ...string) bool {
	for _, k := range keys {
		for _, have := range s.Keys {
			if have == k {
				return true
			}
		}
	}
	return false
}

// ElementHas reports whether the first element has one of the keys.
func (s Shape) ElementHas(keys ...string) bool {
	for _, k := range keys {
		for _, have := range s.ElementKeys {
			if have == k {
				return true
			}
		}
	}
	return false
}

// ReadShape reads the shape of head's first value. When arrayKey is not
// "" and the first value is an object, the first element of its member
// arrayKey (say "history") fills ElementKeys.
func ReadShape(head []byte, arrayKey string) Shape {
	head = bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	s := Shape{Strings: map[string]string{}}
	if len(head) == 0 {
		return s
	}
	dec := json.NewDecoder(bytes.NewReader(head))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return s
	}
	switch tok {
	case json.Delim('['):
		s.Array = true
		if next, err := dec.Token(); err == nil && next == json.Delim('{') {
			s.ElementKeys = readKeys(dec, s.Strings, "", nil)
		}
	case json.Delim('{'):
		s.Keys = readKeys(dec, s.Strings, arrayKey, &s.ElementKeys)
	}
	return s
}

// readKeys reads the members of an object whose '{' was just read, and
// returns their keys; short string values go to strs. When key arrayKey
// holds an array of objects, its first element's keys go to elems.
func readKeys(dec *json.Decoder, strs map[string]string, arrayKey string, elems *[]string) []string {
	var keys []string
	for {
		tok, err := dec.Token()
		if err != nil || tok == json.Delim('}') {
			return keys
		}
		key, ok := tok.(string)
		if !ok {
			return keys
		}
		keys = append(keys, key)
		val, err := dec.Token()
		if err != nil {
			return keys
		}
		switch v := val.(type) {
		case string:
			if len(v) <= 200 {
				strs[key] = v
			}
		case json.Delim:
			if key == arrayKey && v == '[' && elems != nil {
				if first, err := dec.Token(); err == nil && first == json.Delim('{') {
					*elems = readKeys(dec, map[string]string{}, "", nil)
					if !skipRest(dec, 1) {
						return keys
					}
					continue
				} else if first == json.Delim(']') {
					continue
				}
				if !skipRest(dec, 1) {
					return keys
				}
				continue
			}
			if !skipRest(dec, 1) {
				return keys
			}
		}
	}
}

// skipRest reads tokens until depth open containers have closed; it
// reports false when the input ends first.
func skipRest(dec *json.Decoder, depth int) bool {
	for depth > 0 {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return true
}
