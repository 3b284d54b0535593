package codex

import (
	"bytes"
	"encoding/json"
)

// Sniff reports whether head, the first bytes of a file, look like a
// Codex rollout: a first line in the modern envelope with a rollout record
// type, or a legacy header (id and timestamp, no type) followed by an
// item or state line.
func (Importer) Sniff(head []byte) bool {
	head = bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	first, rest, _ := bytes.Cut(head, []byte("\n"))
	var ln line
	if len(first) == 0 || first[0] != '{' || json.Unmarshal(first, &ln) != nil {
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
	second, _, _ := bytes.Cut(bytes.TrimLeft(rest, " \t\r\n"), []byte("\n"))
	var next line
	if json.Unmarshal(second, &next) != nil {
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
