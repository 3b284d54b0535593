package proxyrec

import (
	"unsafe"

	json "github.com/segmentio/encoding/json"
	"github.com/tidwall/gjson"
)

// A request body is read by its members, and its message array by its
// elements, as substrings of the body: a scan that unquotes nothing, so
// that the elements a request repeats from the one before it cost a
// comparison, not a decoding (see messageMemo). gjson does the scan; the
// body is valid JSON by then.

// element is one element of an array: its raw JSON, a substring of the
// body, and where it starts in the body.
type element struct {
	raw string
	at  int
}

// Layout is where a request's messages stand in its body: its message
// array (the messages, Gemini's contents, Responses' input) and each
// element of it, as byte offsets. A rewriter of the request changes the
// elements it needs to without reading the body again.
type Layout struct {
	Array    Span
	Elements []Span
}

// Span is where a value stands in a body: [At, End).
type Span struct{ At, End int }

// readBody reads the members of a request body: each member named in
// fields into the value it points to, and the member named array as it
// stands. It reports false when a member of fields is not of its type.
func readBody(body, array string, fields map[string]any) (gjson.Result, bool) {
	var arr gjson.Result
	ok := true
	gjson.Parse(body).ForEach(func(k, v gjson.Result) bool {
		if k.Str == array {
			arr = v
		} else if dst, named := fields[k.Str]; named {
			ok = ok && decode(v.Raw, dst)
		}
		return true
	})
	return arr, ok
}

// messagesIn reads the member array of a body (readBody's) into its
// elements: none when it is absent or null; false when it is no array.
func messagesIn(body string, arr gjson.Result) ([]element, *Layout, bool) {
	es, layout := elements(body, arr)
	return es, layout, es != nil || !arr.Exists() || arr.Type == gjson.Null
}

// elements returns the elements of v, an array among body's members, and
// where they stand in body; nil when v is no array.
func elements(body string, v gjson.Result) ([]element, *Layout) {
	if !v.IsArray() {
		return nil, nil
	}
	at, ok := offset(body, v.Raw)
	if !ok {
		return nil, nil
	}
	layout := &Layout{Array: Span{at, at + len(v.Raw)}, Elements: []Span{}}
	out := []element{}
	v.ForEach(func(_, e gjson.Result) bool {
		at, ok = offset(body, e.Raw)
		out = append(out, element{raw: e.Raw, at: at})
		layout.Elements = append(layout.Elements, Span{at, at + len(e.Raw)})
		return ok
	})
	if !ok {
		return nil, nil
	}
	return out, layout
}

// offset is where sub, a substring of body, starts in it.
func offset(body, sub string) (int, bool) {
	at := int(uintptr(unsafe.Pointer(unsafe.StringData(sub))) - uintptr(unsafe.Pointer(unsafe.StringData(body))))
	return at, len(sub) > 0 && at >= 0 && at+len(sub) <= len(body)
}

// span is the raw JSON of the elements es of body, from the first's start
// to the last's end, as one string.
func span(body string, es []element) string {
	last := es[len(es)-1]
	return body[es[0].at : last.at+len(last.raw)]
}

// decode reads raw JSON, a substring of a body, into v.
func decode(raw string, v any) bool {
	return raw != "" && json.Unmarshal(view(raw), v) == nil
}

// view is the bytes of s without copying them; no one may change them.
// The JSON decoder only reads its input.
func view(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
