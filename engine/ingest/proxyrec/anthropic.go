package proxyrec

import (
	json "github.com/segmentio/encoding/json"

	"ctxscope/engine/session"
)

// anthropicBlock is a content block of the Messages API.
type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Data      string          `json:"data"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// anthropicRequest reads a Messages request.
func anthropicRequest(body string, memo *messageMemo) request {
	var out request
	var system json.RawMessage
	var tools []json.RawMessage
	arr, ok := readBody(body, "messages", map[string]any{"model": &out.model, "system": &system, "tools": &tools})
	msgs, layout, okMsgs := messagesIn(body, arr)
	out.layout = layout
	if !ok || !okMsgs {
		return request{}
	}
	var prompt []string
	for _, b := range TextBlocks(system) {
		prompt = append(prompt, b.Text)
	}
	out.system = systemMessage(prompt, tools, nameField)
	for _, e := range msgs {
		m, ok := memo.message(e.raw, func() (*session.Message, bool) { return anthropicMessage(e.raw) })
		if !ok {
			return request{}
		}
		out.messages = append(out.messages, m)
	}
	return out
}

// anthropicMessage reads one message of a request.
func anthropicMessage(raw string) (*session.Message, bool) {
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if !decode(raw, &m) {
		return nil, false
	}
	msg := &session.Message{Role: session.RoleUser, Blocks: anthropicBlocks(m.Content)}
	switch {
	case m.Role == "assistant":
		msg.Role = session.RoleAssistant
	case toolResults(msg):
		msg.Role = session.RoleTool
	}
	return msg, true
}

// toolResults reports whether a user message carries tool results and
// nothing its user wrote (only context the agent injected beside them):
// the Messages API sends results as user messages, but they are no user
// turn, and eviction treats them as the tools' output.
func toolResults(m *session.Message) bool {
	results := 0
	for i := range m.Blocks {
		b := &m.Blocks[i]
		switch {
		case b.Type == session.BlockToolResult:
			results++
		case session.SectionOf(m, b) != session.SectionInjected:
			return false
		}
	}
	return results > 0
}

// anthropicBlocks reads a message's content: a string or blocks.
func anthropicBlocks(raw json.RawMessage) []session.Block {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []session.Block{{Type: session.BlockText, Text: s}}
	}
	var blocks []anthropicBlock
	json.Unmarshal(raw, &blocks)
	out := make([]session.Block, 0, len(blocks))
	for i := range blocks {
		if b, ok := anthropicBlockOf(&blocks[i]); ok {
			out = append(out, b)
		}
	}
	return out
}

func anthropicBlockOf(b *anthropicBlock) (session.Block, bool) {
	switch b.Type {
	case "text":
		return session.Block{Type: session.BlockText, Text: b.Text}, true
	case "thinking":
		return session.Block{Type: session.BlockThinking, Text: b.Thinking}, true
	case "redacted_thinking":
		return session.Block{Type: session.BlockOpaque, Size: len(b.Data)}, true
	case "tool_use", "server_tool_use":
		return session.Block{Type: session.BlockToolCall, ToolCallID: b.ID, ToolName: b.Name, Arguments: arguments(b.Input)}, true
	case "tool_result":
		return session.Block{Type: session.BlockToolResult, ToolCallID: b.ToolUseID, Content: TextBlocks(b.Content), IsError: b.IsError}, true
	case "image", "document":
		return session.Block{Type: session.BlockImage}, true
	}
	return session.Block{}, false
}
