package pi

import (
	"bufio"
	"bytes"
	"encoding/json"

	"ctxscope/engine/ingest/jsonl"
)

// shape is how a pi file is laid out.
type shape int

const (
	shapeJSONL  shape = iota // session JSONL
	shapeArray               // a JSON array of AgentMessages
	shapeObject              // one AgentMessage
)

// sniff looks at the start of br, without consuming it, to tell the
// file's shape.
func sniff(br *bufio.Reader) shape {
	head, _ := br.Peek(1 << 16)
	return sniffHead(head)
}

func sniffHead(head []byte) shape {
	head = bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	if len(head) == 0 {
		return shapeJSONL
	}
	switch head[0] {
	case '[':
		return shapeArray
	case '{':
		// A JSONL record is one line; an AgentMessage has a role and no type.
		first := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			first = head[:i]
		}
		var probe struct {
			Role *string `json:"role"`
			Type *string `json:"type"`
		}
		if json.Unmarshal(first, &probe) == nil {
			if probe.Role != nil && probe.Type == nil {
				return shapeObject
			}
			return shapeJSONL
		}
		// The first line is not a whole object: a pretty-printed message,
		// or a broken JSONL line, which the JSONL reader will report.
		if json.Valid(head) || bytes.Contains(first, []byte(`"role"`)) {
			return shapeObject
		}
	}
	return shapeJSONL
}

// Sniff reports whether head, the first bytes of a file, look like a pi
// session or pi AgentMessages.
func (Importer) Sniff(head []byte) bool {
	head = bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	if len(head) == 0 {
		return false
	}
	if head[0] == '{' {
		first := head
		if vals := jsonl.FirstValues(head, 1); len(vals) == 1 {
			first = vals[0]
		}
		var rec struct {
			Type    string `json:"type"`
			Message *struct {
				Role string `json:"role"`
			} `json:"message"`
		}
		if json.Unmarshal(first, &rec) == nil {
			if rec.Type == "session" {
				return true
			}
			if rec.Type == "message" && rec.Message != nil {
				return isPiRole(rec.Message.Role)
			}
		}
	}
	// A message array, or one pretty-printed message: never a file of
	// JSON Lines records of another agent that merely mention a pi word.
	if head[0] == '[' || sniffHead(head) == shapeObject {
		return bytes.Contains(head, []byte(`"role"`)) &&
			(bytes.Contains(head, []byte(`"toolResult"`)) || bytes.Contains(head, []byte(`"stopReason"`)) || bytes.Contains(head, []byte(`"toolCall"`)))
	}
	return false
}

func isPiRole(r string) bool {
	switch r {
	case "user", "assistant", "toolResult", "bashExecution", "custom", "hookMessage", "branchSummary", "compactionSummary":
		return true
	}
	return false
}
