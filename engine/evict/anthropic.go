package evict

import (
	"fmt"

	json "github.com/segmentio/encoding/json"
)

// anthropicKind is the type of a content block that makes a block of its
// message, "" for one that makes none.
func anthropicKind(bl object) string {
	var typ string
	json.Unmarshal(bl["type"], &typ)
	if !knownBlocks[typ] {
		return ""
	}
	return typ
}

// anthropicEvict rewrites an evicted content block with its stub, and
// reports whether it stays: thinking is dropped.
func anthropicEvict(bl object, typ, stub string) bool {
	switch typ {
	case "thinking", "redacted_thinking":
		return false
	case "text":
		bl["text"] = str(stub)
	case "tool_use", "server_tool_use":
		bl["input"], _ = marshal(map[string]string{"evicted": stub})
	case "tool_result":
		bl["content"] = str(stub)
	}
	return true
}

// knownBlocks are the Messages content blocks a reader of the request
// makes a block of (engine/ingest/proxyrec): the decisions count them.
var knownBlocks = map[string]bool{"text": true, "thinking": true, "redacted_thinking": true, "tool_use": true, "server_tool_use": true,
	"tool_result": true, "image": true, "document": true}

// rewriteAnthropic applies d to a Messages body: its system prompt and
// tools are the input's system message, and each message one input
// message whose blocks are its content blocks. Evicted thinking is
// dropped (the API accepts earlier turns without it), an evicted tool
// result or text is stubbed, an evicted tool call's input replaced.
func rewriteAnthropic(arr *array, d *decisions) ([]byte, error) {
	msgs := arr.elements
	offset := 0
	if d.hasSystem {
		offset = 1
	}
	if len(msgs)+offset != d.messages {
		return nil, fmt.Errorf("the body has %d messages, the replay's input %d", len(msgs)+offset, d.messages)
	}
	keep := lastTurn(msgs, "assistant")
	for j := 0; j < keep; j++ {
		if !d.touches(j + offset) {
			continue
		}
		var blocks []object
		if json.Unmarshal(msgs[j].get("content"), &blocks) != nil {
			continue // a string: one text block, a user's (never evicted)
		}
		out := evictParts(blocks, j+offset, d, anthropicKind, anthropicEvict, func(stub string) object {
			return object{"type": str("text"), "text": str(stub)} // all of it was reasoning
		})
		raw, err := marshal(out)
		if err != nil {
			return nil, err
		}
		if err := msgs[j].set("content", raw); err != nil {
			return nil, fmt.Errorf("message %d: %v", j, err)
		}
	}
	return arr.with(msgs)
}
