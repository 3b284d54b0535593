package evict

import (
	"fmt"

	json "github.com/segmentio/encoding/json"
)

// rewriteGemini applies d to a generateContent body. Its system
// instruction and function declarations are the input's system message;
// each content is one input message whose blocks are its parts (a
// function call, a function response, a thought, inline data, or text
// that is not empty). Evicted thoughts are dropped, an evicted call's
// arguments, response or text replaced by a stub.
func rewriteGemini(arr *array, d *decisions) ([]byte, error) {
	contents := arr.elements
	offset := 0
	if d.hasSystem {
		offset = 1
	}
	if len(contents)+offset != d.messages {
		return nil, fmt.Errorf("the body has %d contents, the replay's input %d", len(contents)+offset, d.messages)
	}
	keep := lastTurn(contents, "model")
	for j := 0; j < keep; j++ {
		if !d.touches(j + offset) {
			continue
		}
		var parts []object
		if err := json.Unmarshal(contents[j].get("parts"), &parts); err != nil {
			continue
		}
		out := evictParts(parts, j+offset, d, partKind, geminiEvict, func(stub string) object { return object{"text": str(stub)} })
		raw, err := marshal(out)
		if err != nil {
			return nil, err
		}
		if err := contents[j].set("parts", raw); err != nil {
			return nil, fmt.Errorf("content %d: %v", j, err)
		}
	}
	return arr.with(contents)
}

// partKind says what block a part makes of its message, as
// engine/ingest/proxyrec reads it, "" for none.
func partKind(p object) string {
	var text string
	var thought bool
	json.Unmarshal(p["text"], &text)
	json.Unmarshal(p["thought"], &thought)
	switch {
	case p["functionCall"] != nil:
		return "call"
	case p["functionResponse"] != nil:
		return "response"
	case thought:
		return "thought"
	case p["inlineData"] != nil:
		return "image"
	case text != "":
		return "text"
	}
	return ""
}

// geminiEvict rewrites an evicted part with its stub, and reports whether
// it stays: thoughts are dropped.
func geminiEvict(p object, kind, stub string) bool {
	switch kind {
	case "thought":
		return false
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
	return true
}
