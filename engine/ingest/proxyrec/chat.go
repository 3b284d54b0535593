package proxyrec

import (
	"ctxscope/engine/session"

	json "github.com/segmentio/encoding/json"
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

// chatRequest reads a Chat Completions request: system and developer
// messages make the system message with the tools.
func chatRequest(body []byte) request {
	var req struct {
		Model    string            `json:"model"`
		Tools    []json.RawMessage `json:"tools"`
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCalls  []chatToolCall  `json:"tool_calls"`
			ToolCallID string          `json:"tool_call_id"`
			Reasoning  string          `json:"reasoning_content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return request{}
	}
	var prompt []string
	out := request{model: req.Model}
	for _, m := range req.Messages {
		switch m.Role {
		case "system", "developer":
			if len(out.messages) == 0 {
				for _, b := range TextBlocks(m.Content) {
					prompt = append(prompt, b.Text)
				}
				continue
			}
			out.messages = append(out.messages, &session.Message{Role: session.RoleSystem, Blocks: TextBlocks(m.Content)})
		case "assistant":
			msg := &session.Message{Role: session.RoleAssistant}
			if m.Reasoning != "" {
				msg.Blocks = append(msg.Blocks, session.Block{Type: session.BlockThinking, Text: m.Reasoning})
			}
			msg.Blocks = append(msg.Blocks, TextBlocks(m.Content)...)
			for _, c := range m.ToolCalls {
				msg.Blocks = append(msg.Blocks, session.Block{Type: session.BlockToolCall, ToolCallID: c.ID, ToolName: c.Function.Name, Arguments: arguments(jsonString(c.Function.Arguments))})
			}
			out.messages = append(out.messages, msg)
		case "tool", "function":
			out.messages = append(out.messages, &session.Message{Role: session.RoleTool, Blocks: []session.Block{{
				Type: session.BlockToolResult, ToolCallID: m.ToolCallID, Content: TextBlocks(m.Content)}}})
		default:
			out.messages = append(out.messages, &session.Message{Role: session.RoleUser, Blocks: TextBlocks(m.Content)})
		}
	}
	out.system = systemMessage(prompt, req.Tools, nameField)
	return out
}

// jsonString quotes s as a JSON string.
func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
