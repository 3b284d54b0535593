package evict

import (
	"bytes"
	"fmt"

	json "github.com/segmentio/encoding/json"
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

// role reads a message's role.
func (o object) role() string {
	var r string
	json.Unmarshal(o["role"], &r)
	return r
}

// lastTurn is the index of the first message of the request's own last
// turn: its last message of the model's role ("assistant", Gemini's
// "model") and what follows it, which a rewrite leaves as sent.
func lastTurn(msgs []object, model string) int {
	for j := len(msgs) - 1; j >= 0; j-- {
		if msgs[j].role() == model {
			return j
		}
	}
	return len(msgs)
}

// messagesOf reads a request body and the array of its member field (its
// messages, Gemini's contents, Responses' input).
func messagesOf(body []byte, field string) (object, []object, error) {
	var req object
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, nil, err
	}
	var msgs []object
	if err := json.Unmarshal(req[field], &msgs); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", field, err)
	}
	return req, msgs, nil
}

// withMessages writes the body req with msgs as its member field.
func withMessages(req object, field string, msgs []object) ([]byte, error) {
	raw, err := marshal(msgs)
	if err != nil {
		return nil, err
	}
	req[field] = raw
	return marshal(req)
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
