package evict

import (
	"fmt"

	json "github.com/segmentio/encoding/json"

	"ctxscope/engine/ingest/proxyrec"
)

// rewriteChat applies d to a Chat Completions body. Its leading system
// and developer messages are the input's system message; each later
// message is one input message, whose blocks are an assistant's
// reasoning, its text and its tool calls, or a tool message's result.
func rewriteChat(arr *array, d *decisions) ([]byte, error) {
	msgs := arr.elements
	lead := 0
	for lead < len(msgs) && (msgs[lead].role() == "system" || msgs[lead].role() == "developer") {
		lead++
	}
	offset := -lead
	if d.hasSystem {
		offset++
	}
	if len(msgs)+offset != d.messages {
		return nil, fmt.Errorf("the body has %d messages, the replay's input %d", len(msgs)+offset, d.messages)
	}
	keep := lastTurn(msgs, "assistant")
	for j := lead; j < keep; j++ {
		i := j + offset
		if !d.touches(i) {
			continue
		}
		switch msgs[j].role() {
		case "assistant":
			if err := evictChatAssistant(msgs[j], i, d); err != nil {
				return nil, fmt.Errorf("message %d: %v", j, err)
			}
		case "tool", "function":
			if x, ok := d.at(i, 0); ok {
				if err := msgs[j].set("content", str(stubText(x.level, x.tokens))); err != nil {
					return nil, fmt.Errorf("message %d: %v", j, err)
				}
			}
		}
	}
	return arr.with(msgs)
}

// evictChatAssistant applies the decisions on the blocks of assistant
// message i: [reasoning], its text parts, its tool calls.
func evictChatAssistant(m *element, i int, d *decisions) error {
	b := 0
	var reasoning string
	if json.Unmarshal(m.get("reasoning_content"), &reasoning) == nil && reasoning != "" {
		if _, ok := d.at(i, b); ok {
			if err := m.remove("reasoning_content"); err != nil {
				return err
			}
		}
		b++
	}
	texts := len(proxyrec.TextBlocks(m.get("content")))
	stubbed, stub := 0, ""
	for t := range texts {
		if x, ok := d.at(i, b+t); ok {
			stubbed++
			stub = stubText(x.level, x.tokens)
		}
	}
	if stubbed > 0 && stubbed == texts {
		if err := m.set("content", str(stub)); err != nil {
			return err
		}
	}
	b += texts
	var calls []object
	if m.get("tool_calls") == nil {
		return nil
	}
	if err := json.Unmarshal(m.get("tool_calls"), &calls); err != nil {
		return fmt.Errorf("tool_calls: %v", err)
	}
	for k, c := range calls {
		x, ok := d.at(i, b+k)
		if !ok {
			continue
		}
		var fn object
		if err := json.Unmarshal(c["function"], &fn); err != nil {
			return fmt.Errorf("tool call %d: %v", k, err)
		}
		args, _ := marshal(map[string]string{"evicted": stubText(x.level, x.tokens)})
		fn["arguments"] = str(string(args))
		raw, _ := marshal(fn)
		c["function"] = raw
	}
	raw, err := marshal(calls)
	if err != nil {
		return err
	}
	return m.set("tool_calls", raw)
}
