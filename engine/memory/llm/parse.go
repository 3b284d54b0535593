package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

var trailingComma = regexp.MustCompile(`,\s*([}\]])`)

// ParseObject reads a JSON object out of model text: from the first "{"
// to the last "}", with trailing commas removed.
func ParseObject(text string) (map[string]json.RawMessage, error) {
	i, j := strings.Index(text, "{"), strings.LastIndex(text, "}")
	if i < 0 || j < i {
		return nil, errors.New("llm: no JSON object in the reply")
	}
	s := trailingComma.ReplaceAllString(text[i:j+1], "$1")
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &obj); err != nil {
		return nil, fmt.Errorf("llm: invalid JSON in the reply: %w", err)
	}
	return obj, nil
}

// list returns field key of obj as a list of raw items.
func list(obj map[string]json.RawMessage, key string) ([]json.RawMessage, error) {
	raw, ok := obj[key]
	if !ok {
		return nil, fmt.Errorf("missing field %q", key)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("field %q is not a list", key)
	}
	return items, nil
}

// record decodes one list item as an object of string fields: required
// fields must be present non-empty strings, optional ones strings when
// present. Any other shape is an error naming the problem.
func record(raw json.RawMessage, required, optional []string) (map[string]string, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, errors.New("not an object")
	}
	out := map[string]string{}
	for _, k := range append(append([]string(nil), required...), optional...) {
		v, ok := obj[k]
		if !ok || string(v) == "null" {
			continue
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, fmt.Errorf("field %q is not a string", k)
		}
		out[k] = strings.TrimSpace(s)
	}
	for _, k := range required {
		if out[k] == "" {
			return nil, fmt.Errorf("missing field %q", k)
		}
	}
	return out, nil
}

// str returns field key of obj as a string.
func str(obj map[string]json.RawMessage, key string) (string, error) {
	raw, ok := obj[key]
	if !ok {
		return "", fmt.Errorf("missing field %q", key)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("field %q is not a string", key)
	}
	return strings.TrimSpace(s), nil
}
