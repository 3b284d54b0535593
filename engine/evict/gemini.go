package evict

import (
	"encoding/json"
	"fmt"
)

// rewriteGemini applies d to a generateContent body. Its system
// instruction and function declarations are the input's system message;
// each content is one input message whose blocks are its parts (a
// function call, a function response, a thought, inline data, or text
// that is not empty). Evicted thoughts are dropped, an evicted call's
// arguments, response or text replaced by a stub.
func rewriteGemini(body []byte, d *decisions) ([]byte, error) {
	var req object
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	var contents []object
	if err := json.Unmarshal(req["contents"], &contents); err != nil {
		return nil, fmt.Errorf("contents: %v", err)
	}
	offset := 0
	if d.hasSystem {
		offset = 1
	}
	if len(contents)+offset != d.messages {
		return nil, fmt.Errorf("the body has %d contents, the replay's input %d", len(contents)+offset, d.messages)
	}
	keep := len(contents)
	for j := len(contents) - 1; j >= 0; j-- {
		if contents[j].role() == "model" {
			keep = j
			break
		}
	}
	for j := 0; j < keep; j++ {
		var parts []object
		if err := json.Unmarshal(contents[j]["parts"], &parts); err != nil {
			continue
		}
		out := parts[:0]
		b := 0
		for _, p := range parts {
			kind := partKind(p)
			if kind == "" {
				out = append(out, p) // no block of the input
				continue
			}
			x, ok := d.at(j+offset, b)
			b++
			if !ok {
				out = append(out, p)
				continue
			}
			stub := stubText(x.level, x.tokens)
			switch kind {
			case "thought":
				continue // dropped
			case "call":
				var fc object
				json.Unmarshal(p["functionCall"], &fc)
				fc["args"], _ = marshal(map[string]string{"evicted": stub})
				p["functionCall"], _ = marshal(fc)
			case "response":
				var fr object
				json.Unmarshal(p["functionResponse"], &fr)
				fr["response"], _ = marshal(map[string]string{"output": stub})
				p["functionResponse"], _ = marshal(fr)
			case "text":
				p["text"] = str(stub)
			}
			out = append(out, p)
		}
		if len(out) == 0 {
			out = append(out, object{"text": str(stubText(1, 0))})
		}
		raw, err := marshal(out)
		if err != nil {
			return nil, err
		}
		contents[j]["parts"] = raw
	}
	raw, err := marshal(contents)
	if err != nil {
		return nil, err
	}
	req["contents"] = raw
	return marshal(req)
}

// partKind says what block a part makes of its message, as
// engine/ingest/proxyrec reads it, "" for none.
func partKind(p object) string {
	var v struct {
		Text    string `json:"text"`
		Thought bool   `json:"thought"`
	}
	raw, _ := marshal(p)
	json.Unmarshal(raw, &v)
	switch {
	case p["functionCall"] != nil:
		return "call"
	case p["functionResponse"] != nil:
		return "response"
	case v.Thought:
		return "thought"
	case p["inlineData"] != nil:
		return "image"
	case v.Text != "":
		return "text"
	}
	return ""
}
