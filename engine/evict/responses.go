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
	keep := lastModelGroup(items) // it, and what follows it, go as sent
	i := 0                        // the input message of the item
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
				if err := stubOutput(it, typ, x); err != nil {
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
		var err error
		if out, j, err = rewriteModelGroup(items, j, keep, i, d, out); err != nil {
			return nil, err
		}
		j--
		i++
	}
	if i != d.messages {
		return nil, fmt.Errorf("the body makes %d input messages, the replay's input %d", i, d.messages)
	}
	return arr.with(out)
}

// rewriteModelGroup appends to out the run of the model's items that
// starts at items[j], input message i, as d says: an item whose blocks
// are all evicted is dropped when it is reasoning, else stubbed; one with
// some evicted is stubbed in part; items from keep on go as sent. It
// returns out and the index of the first item after the run.
func rewriteModelGroup(items []*element, j, keep, i int, d *decisions, out []*element) ([]*element, int, error) {
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
		switch {
		case evicted == 0 || n == 0:
			out = append(out, it)
		case itemType(it) == "reasoning" && evicted == n:
			// dropped
		default:
			if err := stubModelItem(it, stubText(last.level, last.tokens), evicted == n); err != nil {
				return nil, j, fmt.Errorf("item %d: %v", j, err)
			}
			out = append(out, it)
		}
	}
	return out, j, nil
}

// lastModelGroup returns the index of the first of the last run of the
// model's items, or len(items) when there is none.
func lastModelGroup(items []*element) int {
	for j := len(items) - 1; j >= 0; j-- {
		if modelItem(items[j]) {
			for j > 0 && modelItem(items[j-1]) {
				j--
			}
			return j
		}
	}
	return len(items)
}

// stubOutput puts the stub of decision x in place of the output of a tool
// call's output item of type typ.
func stubOutput(it *element, typ string, x decision) error {
	switch typ {
	case "function_call_output", "custom_tool_call_output":
		return it.set("output", str(stubText(x.level, x.tokens)))
	case "tool_search_output": // the tools found go: their schemas were the output
		return it.set("tools", json.RawMessage("[]"))
	}
	return nil
}

// stubModelItem puts stub in place of what was evicted of one of the
// model's items (not reasoning, which goes whole or stays): a tool call's
// arguments or input, or an assistant message's text when all of it went.
func stubModelItem(it *element, stub string, whole bool) error {
	switch itemType(it) {
	case "function_call":
		args, _ := marshal(map[string]string{"evicted": stub})
		return it.set("arguments", str(string(args)))
	case "custom_tool_call":
		return it.set("input", str(stub))
	case "tool_search_call": // its arguments are an object
		args, _ := marshal(map[string]string{"evicted": stub})
		return it.set("arguments", args)
	case "reasoning":
		return nil
	default: // an assistant message
		if whole {
			text, _ := marshal([]map[string]string{{"type": "output_text", "text": stub}})
			return it.set("content", text)
		}
	}
	return nil
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
