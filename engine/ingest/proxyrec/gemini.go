package proxyrec

import (
	"strconv"

	json "github.com/segmentio/encoding/json"

	"ctxscope/engine/session"
)

// geminiPart is a part of a Gemini content.
type geminiPart struct {
	Text         string `json:"text"`
	Thought      bool   `json:"thought"`
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
	InlineData json.RawMessage `json:"inlineData"`
}

type geminiContent struct {
	Role  string       `json:"role"`
	Parts []geminiPart `json:"parts"`
}

// geminiRequest reads a generateContent request: the system instruction
// and each function declaration make the system message.
func geminiRequest(body string, memo *messageMemo) request {
	var out request
	var si *geminiContent
	var tools []struct {
		FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
	}
	arr, ok := readBody(body, "contents", map[string]any{"model": &out.model, "systemInstruction": &si, "tools": &tools})
	contents, layout, okContents := messagesIn(body, arr)
	out.layout = layout
	if !ok || !okContents {
		return request{}
	}
	var prompt []string
	if si != nil {
		for _, p := range si.Parts {
			prompt = append(prompt, p.Text)
		}
	}
	var decls []json.RawMessage
	for _, t := range tools {
		decls = append(decls, t.FunctionDeclarations...)
	}
	out.system = systemMessage(prompt, decls, nameField)
	for _, e := range contents {
		m, ok := memo.message(e.raw, func() (*session.Message, bool) {
			var c geminiContent
			if !decode(e.raw, &c) {
				return nil, false
			}
			return geminiMessage(c), true
		})
		if !ok {
			return request{}
		}
		out.messages = append(out.messages, m)
	}
	return out
}

// geminiMessage reads one content: the model's, a user's, or a user
// content of function responses (tool results).
func geminiMessage(c geminiContent) *session.Message {
	m := &session.Message{Role: session.RoleUser}
	if c.Role == "model" {
		m.Role = session.RoleAssistant
	}
	results := 0
	for i, p := range c.Parts {
		switch {
		case p.FunctionCall != nil:
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockToolCall, ToolCallID: cmpOr(p.FunctionCall.ID, p.FunctionCall.Name+"#"+strconv.Itoa(i)),
				ToolName: p.FunctionCall.Name, Arguments: arguments(p.FunctionCall.Args)})
		case p.FunctionResponse != nil:
			results++
			text, failed := functionResponse(p.FunctionResponse.Response)
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockToolResult, ToolCallID: p.FunctionResponse.ID, ToolName: p.FunctionResponse.Name,
				Content: []session.Block{{Type: session.BlockText, Text: text}}, IsError: failed})
		case p.Thought:
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockThinking, Text: p.Text})
		case p.InlineData != nil:
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockImage})
		case p.Text != "":
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockText, Text: p.Text})
		}
	}
	if results > 0 && results == len(m.Blocks) {
		m.Role = session.RoleTool
	}
	return m
}

// functionResponse is the text a function response gives the model: the
// output (or error) string of an object that holds nothing else, as
// Gemini CLI sends them, else the response's JSON.
func functionResponse(raw json.RawMessage) (string, bool) {
	var v map[string]json.RawMessage
	if json.Unmarshal(raw, &v) == nil && len(v) == 1 {
		for k, val := range v {
			var s string
			if (k == "output" || k == "error") && json.Unmarshal(val, &s) == nil {
				return s, k == "error"
			}
		}
	}
	return string(raw), false
}
