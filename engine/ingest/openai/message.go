package openai

import (
	"bytes"
	"encoding/json"
	"fmt"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// chatMessage is one chat-completions message.
type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Name       string          `json:"name"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	FunctionCall *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function_call"`
	Reasoning string `json:"reasoning_content"`
}

// Message converts one raw chat-completions message. It is exported for
// the importers of formats that embed chat messages (SWE-agent).
func Message(raw json.RawMessage) (*session.Message, error) {
	var cm chatMessage
	if err := json.Unmarshal(raw, &cm); err != nil {
		return nil, fmt.Errorf("message: %s", norm.JSONError(err))
	}
	content := Content(cm.Content)
	m := &session.Message{}
	switch cm.Role {
	case "system", "developer":
		m.Role, m.Blocks = session.RoleSystem, content
	case "user":
		m.Role, m.Blocks = session.RoleUser, content
	case "assistant":
		m.Role = session.RoleAssistant
		if cm.Reasoning != "" {
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockThinking, Text: cm.Reasoning})
		}
		m.Blocks = append(m.Blocks, content...)
		for _, tc := range cm.ToolCalls {
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockToolCall, ToolCallID: tc.ID, ToolName: tc.Function.Name, Arguments: Arguments(tc.Function.Arguments)})
		}
		if fc := cm.FunctionCall; fc != nil {
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockToolCall, ToolName: fc.Name, Arguments: Arguments(fc.Arguments)})
		}
	case "tool", "function":
		m.Role = session.RoleTool
		m.Blocks = []session.Block{{Type: session.BlockToolResult, ToolCallID: cm.ToolCallID, ToolName: cm.Name, Content: content}}
	case "":
		return nil, fmt.Errorf("message without a role")
	default:
		return nil, fmt.Errorf("unknown message role %q", cm.Role)
	}
	return m, nil
}

// Content converts message content: a string, null, or a list of parts
// (text, image_url, input_audio...). Parts that are neither text nor image
// are kept as their JSON text.
func Content(raw json.RawMessage) []session.Block {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return norm.Text(s)
		}
	}
	var parts []json.RawMessage
	if raw[0] != '[' || json.Unmarshal(raw, &parts) != nil {
		return []session.Block{{Type: session.BlockText, Text: string(raw)}}
	}
	out := make([]session.Block, 0, len(parts))
	for _, p := range parts {
		var pt struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		_ = json.Unmarshal(p, &pt)
		switch pt.Type {
		case "text", "input_text", "output_text":
			out = append(out, session.Block{Type: session.BlockText, Text: pt.Text})
		case "image_url", "input_image", "image":
			out = append(out, session.Block{Type: session.BlockImage})
		default:
			out = append(out, session.Block{Type: session.BlockText, Text: string(p)})
		}
	}
	return out
}

// Arguments returns a call's arguments as JSON: the value a JSON string
// holds when it holds an object or array, else the value as written.
func Arguments(raw json.RawMessage) json.RawMessage {
	raw = norm.NonNull(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return append(json.RawMessage(nil), raw...)
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return append(json.RawMessage(nil), raw...)
	}
	if t := bytes.TrimSpace([]byte(s)); len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t) {
		return json.RawMessage(t)
	}
	return append(json.RawMessage(nil), raw...)
}
