package evict

import (
	"bytes"
	"encoding/json"
	"fmt"
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
// turn: its last assistant message and what follows it, which a rewrite
// leaves as sent.
func lastTurn(msgs []object) int {
	for j := len(msgs) - 1; j >= 0; j-- {
		if msgs[j].role() == "assistant" {
			return j
		}
	}
	return len(msgs)
}

// messagesOf reads a request body and its messages.
func messagesOf(body []byte) (object, []object, error) {
	var req object
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, nil, err
	}
	var msgs []object
	if err := json.Unmarshal(req["messages"], &msgs); err != nil {
		return nil, nil, fmt.Errorf("messages: %v", err)
	}
	return req, msgs, nil
}

// withMessages writes the body req with msgs as its messages.
func withMessages(req object, msgs []object) ([]byte, error) {
	raw, err := marshal(msgs)
	if err != nil {
		return nil, err
	}
	req["messages"] = raw
	return marshal(req)
}
