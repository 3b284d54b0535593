package evict

import (
	"fmt"

	json "github.com/segmentio/encoding/json"

	"ctxscope/engine/ingest/proxyrec"
)

// rewriteResponses applies d to a Responses body. Its instructions, its
// leading developer and system items and its tools are the input's system
// message; the model's items in a row (reasoning, messages, calls) are one
// assistant message whose blocks they are, in order (a reasoning item
// gives a thinking block per summary part and an opaque block for its
// encrypted content); each call output is a tool message. Evicted
// reasoning items are dropped, an evicted call's arguments, output or
// text replaced by a stub.
func rewriteResponses(arr *array, d *decisions) ([]byte, error) {
	items := arr.elements
	keep := len(items) // the last group of the model's items, and what follows it, go as sent
	for j := len(items) - 1; j >= 0; j-- {
		if modelItem(items[j]) {
			keep = j
			for keep > 0 && modelItem(items[keep-1]) {
				keep--
			}
			break
		}
	}
	i := 0 // the input message of the item
	if d.hasSystem {
		i = 1
	}
	lead := true
	out := items[:0]
	for j := 0; j < len(items); j++ {
		it := items[j]
		typ, role := itemType(it), it.role()
		if lead && (typ == "message" || typ == "") && (role == "developer" || role == "system") {
			out = append(out, it) // part of the system message
			continue
		}
		lead = false
		if !modelItem(it) {
			if x, ok := d.at(i, 0); ok && j < keep {
				var err error
				switch typ {
				case "function_call_output", "custom_tool_call_output":
					err = it.set("output", str(stubText(x.level, x.tokens)))
				case "tool_search_output": // the tools found go: their schemas were the output
					err = it.set("tools", json.RawMessage("[]"))
				}
				if err != nil {
					return nil, fmt.Errorf("item %d: %v", j, err)
				}
			}
			out = append(out, it)
			if makesMessage(typ) {
				i++
			}
			continue
		}
		// A group of the model's items: one assistant message.
		b := 0
		for ; j < len(items) && modelItem(items[j]); j++ {
			it := items[j]
			n := blocksOf(it)
			if j >= keep || !d.touches(i) {
				out = append(out, it)
				b += n
				continue
			}
			evicted := 0
			var last decision
			for k := range n {
				if x, ok := d.at(i, b+k); ok {
					evicted++
					last = x
				}
			}
			b += n
			if evicted == 0 || n == 0 {
				out = append(out, it)
				continue
			}
			stub := stubText(last.level, last.tokens)
			var err error
			switch itemType(it) {
			case "reasoning":
				if evicted == n {
					continue // dropped
				}
			case "function_call":
				args, _ := marshal(map[string]string{"evicted": stub})
				err = it.set("arguments", str(string(args)))
			case "custom_tool_call":
				err = it.set("input", str(stub))
			case "tool_search_call": // its arguments are an object
				args, _ := marshal(map[string]string{"evicted": stub})
				err = it.set("arguments", args)
			default: // an assistant message
				if evicted == n {
					text, _ := marshal([]map[string]string{{"type": "output_text", "text": stub}})
					err = it.set("content", text)
				}
			}
			if err != nil {
				return nil, fmt.Errorf("item %d: %v", j, err)
			}
			out = append(out, it)
		}
		j--
		i++
	}
	if i != d.messages {
		return nil, fmt.Errorf("the body makes %d input messages, the replay's input %d", i, d.messages)
	}
	return arr.with(out)
}

func itemType(it *element) string {
	var t string
	json.Unmarshal(it.get("type"), &t)
	return t
}

// makesMessage reports whether an input item of type typ, not one the
// model wrote, makes an input message (as engine/ingest/proxyrec reads
// it): a call's output, or a message. Other items (a web search's call)
// make none.
func makesMessage(typ string) bool {
	switch typ {
	case "function_call_output", "custom_tool_call_output", "tool_search_output", "message", "":
		return true
	}
	return false
}

// modelItem reports whether an input item is one the model wrote.
func modelItem(it *element) bool {
	switch itemType(it) {
	case "reasoning", "function_call", "custom_tool_call", "tool_search_call":
		return true
	case "message", "":
		return it.role() == "assistant"
	}
	return false
}

// blocksOf is how many blocks a model item makes of its assistant message
// (as engine/ingest/proxyrec reads it).
func blocksOf(it *element) int {
	switch itemType(it) {
	case "reasoning":
		var summary []json.RawMessage
		var encrypted string
		json.Unmarshal(it.get("summary"), &summary)
		json.Unmarshal(it.get("encrypted_content"), &encrypted)
		if encrypted != "" {
			return len(summary) + 1
		}
		return len(summary)
	case "function_call", "custom_tool_call", "tool_search_call":
		return 1
	}
	return len(proxyrec.TextBlocks(it.get("content")))
}
