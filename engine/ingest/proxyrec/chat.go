package proxyrec

import (
	json "github.com/segmentio/encoding/json"

	"ctxscope/engine/session"
)

// chatToolCall is a Chat Completions tool call (or a streamed piece of
// one).
type chatToolCall struct {
	Index    int    `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// chatMessage is a message of a Chat Completions request.
type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []chatToolCall  `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
	Reasoning  string          `json:"reasoning_content"`
}

// chatRequest reads a Chat Completions request: system and developer
// messages make the system message with the tools.
func chatRequest(body string, memo *messageMemo) request {
	var out request
	var tools []json.RawMessage
	arr, ok := readBody(body, "messages", map[string]any{"model": &out.model, "tools": &tools})
	msgs, layout, okMsgs := messagesIn(body, arr)
	out.layout = layout
	if !ok || !okMsgs {
		return request{}
	}
	var prompt []string
	for _, e := range msgs {
		m, ok := memo.message(e.raw, func() (*session.Message, bool) { return chatMessageOf(e.raw) })
		if !ok {
			return request{}
		}
		if m.Role == session.RoleSystem && len(out.messages) == 0 {
			for _, b := range m.Blocks {
				prompt = append(prompt, b.Text)
			}
			continue
		}
		out.messages = append(out.messages, m)
	}
	out.system = systemMessage(prompt, tools, nameField)
	return out
}

// chatMessageOf reads one message of a request.
func chatMessageOf(raw string) (*session.Message, bool) {
	var m chatMessage
	if !decode(raw, &m) {
		return nil, false
	}
	switch m.Role {
	case "system", "developer":
		return &session.Message{Role: session.RoleSystem, Blocks: TextBlocks(m.Content)}, true
	case "assistant":
		msg := &session.Message{Role: session.RoleAssistant}
		if m.Reasoning != "" {
			msg.Blocks = append(msg.Blocks, session.Block{Type: session.BlockThinking, Text: m.Reasoning})
		}
		msg.Blocks = append(msg.Blocks, TextBlocks(m.Content)...)
		for _, c := range m.ToolCalls {
			msg.Blocks = append(msg.Blocks, session.Block{Type: session.BlockToolCall, ToolCallID: c.ID, ToolName: c.Function.Name, Arguments: arguments(jsonString(c.Function.Arguments))})
		}
		return msg, true
	case "tool", "function":
		return &session.Message{Role: session.RoleTool, Blocks: []session.Block{{
			Type: session.BlockToolResult, ToolCallID: m.ToolCallID, Content: TextBlocks(m.Content)}}}, true
	}
	return &session.Message{Role: session.RoleUser, Blocks: TextBlocks(m.Content)}, true
}

// jsonString quotes s as a JSON string.
func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
