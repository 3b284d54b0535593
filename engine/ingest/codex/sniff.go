package codex

import (
	"bytes"
	"encoding/json"

	"ctxscope/engine/ingest/jsonl"
)

// Sniff reports whether head, the first bytes of a file, look like a
// Codex rollout: a first line in the modern envelope with a rollout record
// type, or a legacy header (id and timestamp, no type) followed by an
// item or state line.
func (Importer) Sniff(head []byte) bool {
	head = bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	vals := jsonl.FirstValues(head, 2)
	var ln line
	if len(vals) == 0 || vals[0][0] != '{' || json.Unmarshal(vals[0], &ln) != nil {
		return false
	}
	if ln.Payload != nil {
		switch ln.Type {
		case "session_meta", "response_item", "event_msg", "turn_context", "compacted":
			return true
		}
		return false
	}
	if ln.Type != "" || ln.ID == "" {
		return false
	}
	var next line
	if len(vals) < 2 || json.Unmarshal(vals[1], &next) != nil {
		return ln.Instructions != nil
	}
	if next.RecordType != "" {
		return true
	}
	switch next.Type {
	case "message", "reasoning", "function_call", "function_call_output", "local_shell_call", "custom_tool_call":
		return true
	}
	return false
}
