package gemini

import (
	"encoding/json"
	"strings"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// chatMessage is one message of a chat recording.
type chatMessage struct {
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	Model     string          `json:"model"`
	Thoughts  []struct {
		Subject     string `json:"subject"`
		Description string `json:"description"`
	} `json:"thoughts"`
	Tokens *struct {
		Input    int `json:"input"`
		Output   int `json:"output"`
		Cached   int `json:"cached"`
		Thoughts int `json:"thoughts"`
		Tool     int `json:"tool"`
	} `json:"tokens"`
	ToolCalls []toolCall `json:"toolCalls"`
}

type toolCall struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Status string          `json:"status"`
	Result []part          `json:"result"`
}

// part is a Gemini API Part.
type part struct {
	Text         string          `json:"text"`
	Thought      bool            `json:"thought"`
	FunctionCall *functionCall   `json:"functionCall"`
	Response     *functionResult `json:"functionResponse"`
	InlineData   *struct {
		MIMEType string `json:"mimeType"`
	} `json:"inlineData"`
}

type functionCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type functionResult struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

// converted is what one chat message becomes: a message, and for a
// response with tool calls the tool message of their results.
type converted struct {
	kind    session.EntryKind
	value   string // a notice's type
	message *session.Message
	results *session.Message
}

// convert normalizes one chat message.
func convert(cm *chatMessage) converted {
	ts := norm.Time(cm.Timestamp)
	switch cm.Type {
	case "user":
		if onlyResponses(cm.Content) {
			// Gemini CLI 0.6x writes each call's results twice: within the
			// model's record (read below) and again as a user record of
			// functionResponse parts, which would be an empty user turn.
			return converted{kind: session.EntryMeta, value: "functionResponse"}
		}
		return converted{kind: session.EntryMessage, message: &session.Message{Role: session.RoleUser, Time: ts, Blocks: contentBlocks(cm.Content)}}
	case "gemini":
		m := &session.Message{Role: session.RoleAssistant, Provider: "google", Model: cm.Model, Time: ts}
		for _, t := range cm.Thoughts {
			text := strings.TrimSpace(strings.TrimSpace(t.Subject + "\n" + t.Description))
			if text != "" {
				m.Blocks = append(m.Blocks, session.Block{Type: session.BlockThinking, Text: text})
			}
		}
		m.Blocks = append(m.Blocks, contentBlocks(cm.Content)...)
		var results []session.Block
		for _, tc := range cm.ToolCalls {
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockToolCall, ToolCallID: wireCallID(tc.ID, tc.Name), ToolName: tc.Name, Arguments: norm.NonNull(tc.Args)})
			results = append(results, toolResult(tc))
		}
		if t := cm.Tokens; t != nil {
			m.Usage = &session.Usage{Input: t.Input + t.Tool - t.Cached, CacheRead: t.Cached, Output: t.Output + t.Thoughts, Reasoning: t.Thoughts}
		}
		c := converted{kind: session.EntryMessage, message: m}
		if len(results) > 0 {
			c.results = &session.Message{Role: session.RoleTool, Time: ts, Blocks: results}
		}
		return c
	}
	return converted{kind: session.EntryMeta, value: cm.Type}
}

// toolResult is a call's result as the model reads it: the function
// responses' output (or whole response), an error when the call failed.
func toolResult(tc toolCall) session.Block {
	b := session.Block{Type: session.BlockToolResult, ToolCallID: wireCallID(tc.ID, tc.Name), ToolName: tc.Name, IsError: tc.Status == "error" || tc.Status == "cancelled"}
	for _, p := range tc.Result {
		if p.Response != nil {
			b.Content = append(b.Content, session.Block{Type: session.BlockText, Text: responseText(p.Response.Response)})
		} else if p.Text != "" {
			b.Content = append(b.Content, session.Block{Type: session.BlockText, Text: p.Text})
		}
	}
	return b
}

// responseText returns a function response's output when it has one, and
// its JSON otherwise.
func responseText(raw json.RawMessage) string {
	var r struct {
		Output *string `json:"output"`
		Error  *string `json:"error"`
	}
	if json.Unmarshal(raw, &r) == nil {
		if r.Output != nil {
			return *r.Output
		}
		if r.Error != nil {
			return *r.Error
		}
	}
	return string(raw)
}

// contentBlocks reads message content: a string, or a list of parts.
func contentBlocks(raw json.RawMessage) []session.Block {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		return norm.Text(s)
	}
	var parts []part
	if json.Unmarshal(raw, &parts) != nil {
		return nil
	}
	var out []session.Block
	for _, p := range parts {
		switch {
		case p.InlineData != nil:
			out = append(out, session.Block{Type: session.BlockImage, MIME: p.InlineData.MIMEType})
		case strings.TrimSpace(p.Text) != "":
			out = append(out, session.Block{Type: session.BlockText, Text: p.Text})
		}
	}
	return out
}

// wireCallID is the id of a call as the model sent it and receives it
// back. Gemini CLI names a call NAME__ID when the model gave it an id
// (the API's functionCall.id), and logs that name; what goes over the wire
// is the model's id.
func wireCallID(id, name string) string {
	if rest, ok := strings.CutPrefix(id, name+"__"); ok && rest != "" {
		return rest
	}
	return id
}

// onlyResponses reports whether a user record's content is a list of
// functionResponse parts and nothing else.
func onlyResponses(raw json.RawMessage) bool {
	var parts []part
	if json.Unmarshal(raw, &parts) != nil || len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		if p.Response == nil {
			return false
		}
	}
	return true
}
