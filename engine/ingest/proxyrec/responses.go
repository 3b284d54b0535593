package proxyrec

import (
	"ctxscope/engine/session"

	json "github.com/segmentio/encoding/json"
)

// responsesItem is an item of a Responses API input or output.
type responsesItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	Output    json.RawMessage `json:"output"`
	Summary   []struct {
		Text string `json:"text"`
	} `json:"summary"`
	Encrypted string `json:"encrypted_content"`
}

// responsesRequest reads a Responses request: the instructions and the
// leading developer and system messages make the system message with the
// tools; the model's items (reasoning, messages, calls) in a row are one
// assistant message, as the response that made them is.
func responsesRequest(body []byte) request {
	var req struct {
		Model        string            `json:"model"`
		Instructions string            `json:"instructions"`
		Tools        []json.RawMessage `json:"tools"`
		Input        json.RawMessage   `json:"input"`
	}
	if json.Unmarshal(body, &req) != nil {
		return request{}
	}
	out := request{model: req.Model}
	prompt := []string{req.Instructions}
	var s string
	if json.Unmarshal(req.Input, &s) == nil {
		out.messages = []*session.Message{{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: s}}}}
		out.system = systemMessage(prompt, req.Tools, nameField)
		return out
	}
	var items []responsesItem
	json.Unmarshal(req.Input, &items)
	var model *session.Message // the assistant message being gathered
	for i := range items {
		it := &items[i]
		if b, ok := modelBlock(it); ok {
			if model == nil {
				model = &session.Message{Role: session.RoleAssistant}
				out.messages = append(out.messages, model)
			}
			model.Blocks = append(model.Blocks, b...)
			continue
		}
		model = nil
		switch {
		case it.Type == "function_call_output" || it.Type == "custom_tool_call_output":
			out.messages = append(out.messages, &session.Message{Role: session.RoleTool, Blocks: []session.Block{{
				Type: session.BlockToolResult, ToolCallID: it.CallID, Content: TextBlocks(it.Output)}}})
		case (it.Type == "message" || it.Type == "") && (it.Role == "developer" || it.Role == "system"):
			if len(out.messages) == 0 {
				for _, b := range TextBlocks(it.Content) {
					prompt = append(prompt, b.Text)
				}
				continue
			}
			out.messages = append(out.messages, &session.Message{Role: session.RoleSystem, Blocks: TextBlocks(it.Content)})
		case it.Type == "message" || it.Type == "":
			out.messages = append(out.messages, &session.Message{Role: session.RoleUser, Blocks: TextBlocks(it.Content)})
		}
	}
	out.system = systemMessage(prompt, req.Tools, nameField)
	return out
}

// modelBlock reads an item the model wrote, as the blocks of its
// assistant message.
func modelBlock(it *responsesItem) ([]session.Block, bool) {
	switch it.Type {
	case "reasoning":
		var out []session.Block
		for _, s := range it.Summary {
			out = append(out, session.Block{Type: session.BlockThinking, Text: s.Text})
		}
		if it.Encrypted != "" {
			out = append(out, session.Block{Type: session.BlockOpaque, Size: len(it.Encrypted)})
		}
		return out, true
	case "function_call":
		return []session.Block{{Type: session.BlockToolCall, ToolCallID: it.CallID, ToolName: it.Name, Arguments: arguments(it.Arguments)}}, true
	case "custom_tool_call":
		var text string
		json.Unmarshal(it.Input, &text)
		return []session.Block{{Type: session.BlockToolCall, ToolCallID: it.CallID, ToolName: it.Name, Arguments: jsonString(text)}}, true
	case "message", "":
		if it.Role == "assistant" {
			return TextBlocks(it.Content), true
		}
	}
	return nil, false
}
