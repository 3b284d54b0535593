package proxyrec

import (
	"bytes"

	json "github.com/segmentio/encoding/json"
	"github.com/tidwall/gjson"

	"ctxscope/engine/session"
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
	// Tools are what a client-side tool search found (Codex's deferred
	// MCP tools): their schemas, which the model reads.
	Tools json.RawMessage `json:"tools"`
}

// responsesRequest reads a Responses request: the instructions and the
// leading developer and system messages make the system message with the
// tools; the model's items (reasoning, messages, calls) in a row are one
// assistant message, as the response that made them is.
func responsesRequest(body string, memo *messageMemo) request {
	var out request
	var instructions string
	var tools []json.RawMessage
	input, ok := readBody(body, "input", map[string]any{"model": &out.model, "instructions": &instructions, "tools": &tools})
	if !ok {
		return request{}
	}
	prompt := []string{instructions}
	if input.Type == gjson.String {
		out.messages = []*session.Message{{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: input.Str}}}}
		out.system = systemMessage(prompt, tools, nameField)
		return out
	}
	items, layout := elements(body, input)
	out.layout = layout
	for j := 0; j < len(items); {
		k := j + 1
		if isModelItem(items[j].raw) {
			for k < len(items) && isModelItem(items[k].raw) {
				k++
			}
		}
		group := items[j:k]
		m, ok := memo.message(span(body, group), func() (*session.Message, bool) { return responsesMessage(group) })
		if !ok {
			return request{}
		}
		j = k
		switch {
		case m == nil:
		case m.Role == session.RoleSystem && len(out.messages) == 0:
			for _, b := range m.Blocks {
				prompt = append(prompt, b.Text)
			}
		default:
			out.messages = append(out.messages, m)
		}
	}
	out.system = systemMessage(prompt, tools, nameField)
	return out
}

// isModelItem reports whether an input item is one the model wrote
// (reasoning, a message of the assistant, a call), read from its type and
// role alone.
func isModelItem(raw string) bool {
	switch gjson.Get(raw, "type").String() {
	case "reasoning", "function_call", "custom_tool_call", "tool_search_call":
		return true
	case "message", "":
		return gjson.Get(raw, "role").String() == "assistant"
	}
	return false
}

// responsesMessage reads the message that items make: items the model
// wrote in a row, as one assistant message, or another item alone (nil
// for an item that gives the model no message).
func responsesMessage(items []element) (*session.Message, bool) {
	var model *session.Message
	for _, e := range items {
		var it responsesItem
		if !decode(e.raw, &it) {
			return nil, false
		}
		if b, ok := modelBlock(&it); ok {
			if model == nil {
				model = &session.Message{Role: session.RoleAssistant}
			}
			model.Blocks = append(model.Blocks, b...)
			continue
		}
		switch {
		case it.Type == "function_call_output" || it.Type == "custom_tool_call_output":
			return &session.Message{Role: session.RoleTool, Blocks: []session.Block{{
				Type: session.BlockToolResult, ToolCallID: it.CallID, Content: TextBlocks(it.Output)}}}, true
		case it.Type == "tool_search_output":
			return &session.Message{Role: session.RoleTool, Blocks: []session.Block{{
				Type: session.BlockToolResult, ToolCallID: it.CallID, ToolName: "tool_search", Content: searchedTools(it.Tools)}}}, true
		case (it.Type == "message" || it.Type == "") && (it.Role == "developer" || it.Role == "system"):
			return &session.Message{Role: session.RoleSystem, Blocks: TextBlocks(it.Content)}, true
		case it.Type == "message" || it.Type == "":
			return &session.Message{Role: session.RoleUser, Blocks: TextBlocks(it.Content)}, true
		}
		return nil, true
	}
	return model, true
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
	case "tool_search_call":
		return []session.Block{{Type: session.BlockToolCall, ToolCallID: it.CallID, ToolName: "tool_search", Arguments: arguments(it.Arguments)}}, true
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

// searchedTools is the content of a tool search's output: the schemas of
// the tools it found, as the body carries them (compact JSON).
func searchedTools(raw json.RawMessage) []session.Block {
	var c bytes.Buffer
	if len(raw) == 0 || json.Compact(&c, raw) != nil {
		return nil
	}
	return []session.Block{{Type: session.BlockText, Text: c.String()}}
}
