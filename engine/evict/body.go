package evict

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	json "github.com/segmentio/encoding/json"

	"ctxscope/engine/ingest/proxyrec"
)

// object is a JSON object whose members are kept as they came, so that a
// rewrite changes only what it means to (members come out in sorted
// order, which the APIs do not mind).
type object map[string]json.RawMessage

// marshal writes v as JSON without escaping <, > and &, as the agents
// send them.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// str encodes s as a JSON string.
func str(s string) json.RawMessage {
	b, _ := marshal(s)
	return b
}

// element is one element of the body's message array: its raw JSON, a
// substring of the body until it is changed. An element nothing changes
// goes out as it came, without being decoded: a rewrite costs what it
// evicts, not the size of the history. A member is changed in place in the
// raw JSON; only a member added or removed decodes the element (obj).
type element struct {
	raw     string
	members map[string]span // where the raw's members' values are, read on first use
	obj     object          // nil until a member is added or removed
	memo    *memberReads    // where members are read from and kept
}

// span is where a value stands in the raw JSON around it.
type span struct{ at, end int }

// member returns the raw value of member key of the raw JSON.
func (e *element) member(key string) (span, bool) {
	if e.members == nil {
		e.members = e.memo.membersOf(e.raw)
	}
	v, ok := e.members[key]
	return v, ok
}

// memberMemo keeps where the members stand in the elements the latest
// rewrite of a conversation read, by their raw JSON: the next request
// repeats those elements, and the same evictions read the same members of
// them again. With it, a rewrite reads the elements it evicts from once,
// not at every request. It is safe for concurrent use.
type memberMemo struct {
	mu     sync.Mutex
	latest map[string]memberRead
}

// memberRead is where the members of an element stand, with the element
// as the memo's key: a copy of its raw JSON, since the body it came from
// is the proxy's, and only lent for the rewrite.
type memberRead struct {
	raw     string
	members map[string]span
}

// reads starts a rewrite's reading of members.
func (m *memberMemo) reads() *memberReads {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return &memberReads{memo: m, prev: m.latest, next: map[string]memberRead{}}
}

// memberReads are the member reads of one rewrite: those of the memo's
// latest rewrite it takes, and those it keeps for the next.
type memberReads struct {
	memo       *memberMemo
	prev, next map[string]memberRead
}

// membersOf returns where the members of raw stand.
func (r *memberReads) membersOf(raw string) map[string]span {
	if r == nil {
		return membersOf(raw)
	}
	read, ok := r.prev[raw]
	if !ok {
		read = memberRead{raw: strings.Clone(raw), members: membersOf(raw)}
	}
	r.next[read.raw] = read
	return read.members
}

// done makes the rewrite's reads the memo's latest.
func (r *memberReads) done() {
	if r == nil {
		return
	}
	r.memo.mu.Lock()
	defer r.memo.mu.Unlock()
	r.memo.latest = r.next
}

// membersOf reads where the values of the members of object raw stand,
// with a tokenizer that unquotes nothing but the keys: the last of a key
// given twice, as the decoders take it. Invalid JSON has none.
func membersOf(raw string) map[string]span {
	out := map[string]span{}
	t := json.NewTokenizer(view(raw))
	depth, start := 0, 0
	key := ""
	for t.Next() {
		end := len(raw) - t.Remaining()
		if depth == 0 && t.Delim != '{' {
			return map[string]span{} // not an object, or more after it
		}
		switch t.Delim {
		case '{', '[':
			if depth == 1 {
				start = end - 1
			}
			depth++
			continue
		case '}', ']':
			depth--
			if depth == 1 {
				out[key] = span{start, end}
			}
			continue
		case ':', ',':
			continue
		}
		switch {
		case depth != 1:
		case t.IsKey:
			key = string(t.String())
		default:
			out[key] = span{end - len(t.Value), end}
		}
	}
	if t.Err != nil || depth != 0 {
		return map[string]span{}
	}
	return out
}

// view is the bytes of s without copying them; the tokenizer only reads
// them.
func view(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// get returns the raw value of member key (nil when there is none).
func (e *element) get(key string) json.RawMessage {
	if e.obj != nil {
		return e.obj[key]
	}
	if v, ok := e.member(key); ok {
		return json.RawMessage(e.raw[v.at:v.end])
	}
	return nil
}

// set changes member key to v, adding it when there is none.
func (e *element) set(key string, v json.RawMessage) error {
	if e.obj == nil {
		if m, ok := e.member(key); ok {
			e.raw = e.raw[:m.at] + string(v) + e.raw[m.end:]
			e.members = nil
			return nil
		}
		if err := e.decode(); err != nil {
			return err
		}
	}
	e.obj[key] = v
	return nil
}

// remove drops member key.
func (e *element) remove(key string) error {
	if err := e.decode(); err != nil {
		return err
	}
	delete(e.obj, key)
	return nil
}

func (e *element) decode() error {
	if e.obj != nil {
		return nil
	}
	return json.Unmarshal([]byte(e.raw), &e.obj)
}

// role reads a message's role.
func (e *element) role() string {
	var r string
	json.Unmarshal(e.get("role"), &r)
	return r
}

// lastTurn is the index of the first message of the request's own last
// turn: its last message of the model's role ("assistant", Gemini's
// "model") and what follows it, which a rewrite leaves as sent.
func lastTurn(msgs []*element, model string) int {
	for j := len(msgs) - 1; j >= 0; j-- {
		if msgs[j].role() == model {
			return j
		}
	}
	return len(msgs)
}

// array is a request body with its message array (its member field: the
// messages, Gemini's contents, Responses' input) read into elements.
type array struct {
	body     string
	at, end  int // where the array is in the body
	elements []*element
}

// messagesOf is a request body with its message array where the reader
// of the request found it (layout: nil when it could not read them, and
// then there is nothing to rewrite), its elements' members read by reads
// (nil: each read afresh).
func messagesOf(body []byte, layout *proxyrec.Layout, reads *memberReads) (*array, error) {
	if layout == nil {
		return nil, fmt.Errorf("the body's messages could not be read")
	}
	s := unsafe.String(unsafe.SliceData(body), len(body)) // read, and not kept past the rewrite
	a := &array{body: s, at: layout.Array.At, end: layout.Array.End}
	for _, e := range layout.Elements {
		a.elements = append(a.elements, &element{raw: s[e.At:e.End], memo: reads})
	}
	return a, nil
}

// with writes the body with elems as its array: the body's bytes outside
// the array as they came, the elements nothing changed too.
func (a *array) with(elems []*element) ([]byte, error) {
	out := make([]byte, 0, len(a.body))
	out = append(out, a.body[:a.at]...)
	out = append(out, '[')
	for k, e := range elems {
		if k > 0 {
			out = append(out, ',')
		}
		if e.obj == nil {
			out = append(out, e.raw...)
			continue
		}
		raw, err := marshal(e.obj)
		if err != nil {
			return nil, err
		}
		out = append(out, raw...)
	}
	out = append(out, ']')
	return append(out, a.body[a.end:]...), nil
}

// evictParts applies the decisions on input message i to its parts (a
// Messages content array, a Gemini content's parts): kindOf names what
// block a part makes ("" for none, which the decisions do not count);
// apply rewrites an evicted part with its stub and reports whether it
// stays (reasoning is dropped). When nothing stays, one text part made by
// empty holds a stub: the APIs want content.
func evictParts(parts []object, i int, d *decisions, kindOf func(object) string, apply func(p object, kind, stub string) bool, empty func(stub string) object) []object {
	out := parts[:0]
	b := 0
	for _, p := range parts {
		kind := kindOf(p)
		if kind == "" {
			out = append(out, p)
			continue
		}
		x, ok := d.at(i, b)
		b++
		if !ok || apply(p, kind, stubText(x.level, x.tokens)) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		out = append(out, empty(stubText(1, 0)))
	}
	return out
}
