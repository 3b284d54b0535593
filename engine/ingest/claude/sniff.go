package claude

import (
	"bytes"
	"encoding/json"

	"ctxscope/engine/ingest/jsonl"
)

// Sniff reports whether head, the first bytes of a file, look like a
// Claude Code transcript: its first records have a type, and one of them
// carries the fields every conversation record has (uuid, sessionId) or
// is a summary with a leafUuid.
func (Importer) Sniff(head []byte) bool {
	head = bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	for _, line := range jsonl.FirstValues(head, 8) {
		var probe struct {
			Type      string  `json:"type"`
			UUID      *string `json:"uuid"`
			SessionID *string `json:"sessionId"`
			LeafUUID  *string `json:"leafUuid"`
			Payload   any     `json:"payload"`
		}
		if json.Unmarshal(line, &probe) != nil || probe.Type == "" || probe.Payload != nil {
			continue
		}
		if probe.SessionID != nil && probe.UUID != nil {
			return true
		}
		if probe.Type == "summary" && probe.LeafUUID != nil {
			return true
		}
		if probe.SessionID != nil && (probe.Type == "file-history-snapshot" || probe.Type == "queue-operation" || probe.Type == "permission-mode") {
			return true
		}
	}
	return false
}
