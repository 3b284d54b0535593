package protocol

import (
	"bytes"
	"encoding/json"
	"strings"

	"ctxscope/engine/session"
)

// Episode kinds, as the delimiter tool names them.
const (
	KindExpl = "expl" // exploration: gathers information
	KindAct  = "act"  // action: changes things, depends on explorations
)

// Chunk is the chunk a delimiter event carries.
type Chunk struct {
	Name         string   `json:"name"`
	Type         string   `json:"type"`
	Dependencies []string `json:"dependencies,omitempty"`
	Description  string   `json:"description,omitempty"`
}

// MarshalJSON writes the chunk with the reference's key order: name, type,
// then dependencies when the chunk has a dependency list (act chunks, even
// an empty one), then description when it is not empty.
func (c Chunk) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"name":`)
	writeString(&b, c.Name)
	b.WriteString(`,"type":`)
	writeString(&b, c.Type)
	if c.Dependencies != nil {
		b.WriteString(`,"dependencies":[`)
		for i, d := range c.Dependencies {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(&b, d)
		}
		b.WriteByte(']')
	}
	if c.Description != "" {
		b.WriteString(`,"description":`)
		writeString(&b, c.Description)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Truncate(b.Len() - 1) // the encoder's newline
}

// ChunkEvent is the details.chunkEvent of a successful delimiter result.
type ChunkEvent struct {
	Action string `json:"action"` // "start" or "end"
	Chunk  Chunk  `json:"chunk"`
}

// IsDelimiter reports whether a tool name is the CWL delimiter tool,
// including MCP-namespaced variants such as "mcp__cwl__delimiter".
func IsDelimiter(tool string) bool {
	return tool == "delimiter" || strings.HasSuffix(tool, "__delimiter")
}

// EventOf returns the chunk event recorded in a delimiter tool result, as
// the reference reads it (chunk.ts L32-47): the result's details must hold a
// chunkEvent with both an action and a chunk.
func EventOf(b *session.Block) (ChunkEvent, bool) {
	if b.Type != session.BlockToolResult || !IsDelimiter(b.ToolName) || len(b.Details) == 0 {
		return ChunkEvent{}, false
	}
	var d struct {
		ChunkEvent *struct {
			Action *string `json:"action"`
			Chunk  *Chunk  `json:"chunk"`
		} `json:"chunkEvent"`
	}
	if json.Unmarshal(b.Details, &d) != nil || d.ChunkEvent == nil || d.ChunkEvent.Action == nil || d.ChunkEvent.Chunk == nil {
		return ChunkEvent{}, false
	}
	return ChunkEvent{Action: *d.ChunkEvent.Action, Chunk: *d.ChunkEvent.Chunk}, true
}
