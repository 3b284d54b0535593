package evict

import (
	"encoding/json"
	"fmt"
)

// knownBlocks are the Messages content blocks a reader of the request
// makes a block of (engine/ingest/proxyrec): the decisions count them.
var knownBlocks = map[string]bool{"text": true, "thinking": true, "redacted_thinking": true, "tool_use": true, "server_tool_use": true,
	"tool_result": true, "image": true, "document": true}

// rewriteAnthropic applies d to a Messages body: its system prompt and
// tools are the input's system message, and each message one input
// message whose blocks are its content blocks. Evicted thinking is
// dropped (the API accepts earlier turns without it), an evicted tool
// result or text is stubbed, an evicted tool call's input replaced.
func rewriteAnthropic(body []byte, d *decisions) ([]byte, error) {
	req, msgs, err := messagesOf(body)
	if err != nil {
		return nil, err
	}
	offset := 0
	if d.hasSystem {
		offset = 1
	}
	if len(msgs)+offset != d.messages {
		return nil, fmt.Errorf("the body has %d messages, the replay's input %d", len(msgs)+offset, d.messages)
	}
	keep := lastTurn(msgs)
	for j := 0; j < keep; j++ {
		var blocks []object
		if json.Unmarshal(msgs[j]["content"], &blocks) != nil {
			continue // a string: one text block, a user's (never evicted)
		}
		out := blocks[:0]
		b := 0
		for _, bl := range blocks {
			var typ string
			json.Unmarshal(bl["type"], &typ)
			if !knownBlocks[typ] {
				out = append(out, bl)
				continue
			}
			x, ok := d.at(j+offset, b)
			b++
			if !ok {
				out = append(out, bl)
				continue
			}
			stub := stubText(x.level, x.tokens)
			switch typ {
			case "thinking", "redacted_thinking":
				continue // dropped
			case "text":
				bl["text"] = str(stub)
			case "tool_use", "server_tool_use":
				bl["input"], _ = marshal(map[string]string{"evicted": stub})
			case "tool_result":
				bl["content"] = str(stub)
			}
			out = append(out, bl)
		}
		if len(out) == 0 { // all of it was reasoning: the API wants content
			out = append(out, object{"type": str("text"), "text": str(stubText(1, 0))})
		}
		raw, err := marshal(out)
		if err != nil {
			return nil, err
		}
		msgs[j]["content"] = raw
	}
	return withMessages(req, msgs)
}
