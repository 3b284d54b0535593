package otlp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/openai"
	"ctxscope/engine/session"
)

// call is what one model call sent and got back, in whichever form its
// instrumentation wrote it.
type call struct {
	system []session.Block // system instructions given apart from the messages
	input  []*session.Message
	output []*session.Message
	found  bool // whether the span carried any content at all
}

// readCall reads a model-call span's messages: the 1.37 attributes (on the
// span or its details event), else the message events of earlier
// versions, else OpenLLMetry's indexed attributes. Problems are returned
// for diagnostics; what could be read is kept.
func readCall(s *span) (call, []string) {
	c, problems := readMessages(s)
	if defs := attrJSON(callAttrs(s), attrToolDefinitions); defs != nil {
		tools, err := toolDefinitions(defs)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", attrToolDefinitions, err))
		}
		if len(c.system) == 0 && len(c.input) > 0 && c.input[0].Role == session.RoleSystem {
			// The system prompt came as the input's first message: the
			// schemas join it, as they follow the prompt in a request.
			first := c.input[0]
			first.Blocks = append(first.Blocks[:len(first.Blocks):len(first.Blocks)], tools...)
		} else {
			c.system = append(c.system, tools...)
		}
	}
	return c, problems
}

// callAttrs are a model call span's attributes with those of its
// inference details event.
func callAttrs(s *span) map[string]any {
	attrs := s.attrs
	for _, e := range s.events {
		if e.name == evDetails {
			attrs = mergeAttrs(attrs, e.attrs)
		}
	}
	return attrs
}

// toolDefinitions reads gen_ai.tool.definitions, the tools the request
// offered, as the system message's blocks: one per tool's schema, as the
// span carries it (compact JSON), named by its tool, as a wire reader of
// the request makes them (engine/ingest/proxyrec).
func toolDefinitions(raw json.RawMessage) ([]session.Block, error) {
	var defs []json.RawMessage
	if err := json.Unmarshal(raw, &defs); err != nil {
		return nil, fmt.Errorf("not a list of tools: %s", norm.JSONError(err))
	}
	var out []session.Block
	for _, d := range defs {
		var v struct {
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		json.Unmarshal(d, &v)
		name := v.Name
		if name == "" {
			name = v.Function.Name
		}
		if name == "" {
			name = "(unnamed tool)"
		}
		var c bytes.Buffer
		if json.Compact(&c, d) != nil {
			c.Write(d)
		}
		out = append(out, session.Block{Type: session.BlockText, Text: c.String(), ToolName: name})
	}
	return out, nil
}

// readMessages reads a model call span's messages, in whichever form its
// instrumentation wrote them.
func readMessages(s *span) (call, []string) {
	var c call
	var problems []string
	attrs := callAttrs(s)
	if in, out, sys := attrJSON(attrs, attrInputMessages), attrJSON(attrs, attrOutputMessages), attrJSON(attrs, attrSystemInstructions); in != nil || out != nil || sys != nil {
		c.found = true
		var err error
		unknown := map[string]bool{}
		if c.input, err = structuredMessages(in, unknown); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", attrInputMessages, err))
		}
		if c.output, err = structuredMessages(out, unknown); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", attrOutputMessages, err))
		}
		if sys != nil {
			c.system = partsBlocks(rawParts(sys), unknown)
		}
		if len(unknown) > 0 {
			types := make([]string, 0, len(unknown))
			for t := range unknown {
				types = append(types, strconv.Quote(t))
			}
			sort.Strings(types)
			problems = append(problems, "parts of a type not read, kept as their JSON: "+strings.Join(types, ", "))
		}
		return c, problems
	}
	if c.input, c.output = eventMessages(s.events); len(c.input)+len(c.output) > 0 {
		c.found = true
		return c, problems
	}
	if c.input, c.output = indexedMessages(attrs); len(c.input)+len(c.output) > 0 {
		c.found = true
	}
	return c, problems
}

func mergeAttrs(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// otelMessage is one message of gen_ai.input.messages or
// gen_ai.output.messages. Some instrumentations write content (a string
// or chat-completions parts) instead of parts.
type otelMessage struct {
	Role         string            `json:"role"`
	Parts        []json.RawMessage `json:"parts"`
	Content      json.RawMessage   `json:"content"`
	ToolCallID   string            `json:"tool_call_id"`
	FinishReason string            `json:"finish_reason"`
}

// otelPart is one message part: text, reasoning, tool_call,
// tool_call_response, blob, file_data, uri, or any other type.
type otelPart struct {
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Response  json.RawMessage `json:"response"`
	Modality  string          `json:"modality"`
	MIMEType  string          `json:"mime_type"`
}

// structuredMessages converts a gen_ai.input.messages or
// gen_ai.output.messages value.
func structuredMessages(raw json.RawMessage, unknown map[string]bool) ([]*session.Message, error) {
	if raw == nil {
		return nil, nil
	}
	var ms []otelMessage
	if err := json.Unmarshal(raw, &ms); err != nil {
		return nil, fmt.Errorf("not a list of messages: %s", norm.JSONError(err))
	}
	var out []*session.Message
	for _, m := range ms {
		blocks := partsBlocks(m.Parts, unknown)
		if m.Parts == nil {
			blocks = openai.Content(m.Content)
		}
		out = append(out, roleMessages(m.Role, blocks, m.ToolCallID)...)
		if m.FinishReason != "" && len(out) > 0 {
			out[len(out)-1].StopReason = m.FinishReason
		}
	}
	return out, nil
}

// roleMessages makes the messages of one role's blocks: tool results go
// in a tool message of their own, before any other content of a user
// message that carries them.
func roleMessages(role string, blocks []session.Block, toolCallID string) []*session.Message {
	var results, rest []session.Block
	for _, b := range blocks {
		if b.Type == session.BlockToolResult {
			results = append(results, b)
		} else {
			rest = append(rest, b)
		}
	}
	switch role {
	case "tool", "function", "ipython":
		if len(results) == 0 {
			results = []session.Block{{Type: session.BlockToolResult, ToolCallID: toolCallID, Content: rest}}
			rest = nil
		}
		return []*session.Message{{Role: session.RoleTool, Blocks: results}}
	case "system", "developer":
		return []*session.Message{{Role: session.RoleSystem, Blocks: blocks}}
	case "assistant", "model":
		return []*session.Message{{Role: session.RoleAssistant, Blocks: blocks}}
	}
	var out []*session.Message
	if len(results) > 0 {
		out = append(out, &session.Message{Role: session.RoleTool, Blocks: results})
	}
	if len(rest) > 0 || len(results) == 0 {
		out = append(out, &session.Message{Role: session.RoleUser, Blocks: rest})
	}
	return out
}

// rawParts reads a list of parts (gen_ai.system_instructions).
func rawParts(raw json.RawMessage) []json.RawMessage {
	var parts []json.RawMessage
	if json.Unmarshal(raw, &parts) != nil {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			b, _ := json.Marshal(map[string]string{"type": "text", "content": s})
			return []json.RawMessage{b}
		}
	}
	return parts
}

// partsBlocks converts message parts to blocks.
func partsBlocks(parts []json.RawMessage, unknown map[string]bool) []session.Block {
	out := make([]session.Block, 0, len(parts))
	for _, raw := range parts {
		var p otelPart
		if json.Unmarshal(raw, &p) != nil {
			out = append(out, session.Block{Type: session.BlockText, Text: string(raw)})
			continue
		}
		switch p.Type {
		case "text":
			out = append(out, session.Block{Type: session.BlockText, Text: jsonText(p.Content)})
		case "reasoning", "thinking":
			out = append(out, session.Block{Type: session.BlockThinking, Text: jsonText(p.Content)})
		case "tool_call", "server_tool_call":
			out = append(out, session.Block{Type: session.BlockToolCall, ToolCallID: p.ID, ToolName: p.Name, Arguments: openai.Arguments(p.Arguments)})
		case "tool_call_response", "server_tool_call_response":
			out = append(out, session.Block{Type: session.BlockToolResult, ToolCallID: p.ID, Content: responseContent(p.Response)})
		case "blob", "file_data", "uri", "file":
			if p.Modality == "image" || strings.HasPrefix(p.MIMEType, "image/") {
				out = append(out, session.Block{Type: session.BlockImage, MIME: p.MIMEType})
			} else {
				out = append(out, session.Block{Type: session.BlockText, Text: fmt.Sprintf("[%s %s %s]", p.Type, p.Modality, p.MIMEType)})
			}
		default:
			// A part of a form not read: kept as its JSON, and said.
			out = append(out, session.Block{Type: session.BlockText, Text: string(raw)})
			if unknown != nil {
				unknown[p.Type] = true
			}
		}
	}
	return out
}

// responseContent is what a tool call response gives the model: a
// string's text; the texts of a list of text blocks, as the Anthropic SDK
// records a tool result's content ([{"type":"text","text":…}]); else the
// JSON as written.
func responseContent(raw json.RawMessage) []session.Block {
	var blocks []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) == nil && len(blocks) > 0 {
		out := make([]session.Block, 0, len(blocks))
		for _, b := range blocks {
			if b.Type != "text" || b.Text == nil {
				out = nil
				break
			}
			out = append(out, session.Block{Type: session.BlockText, Text: *b.Text})
		}
		if out != nil {
			return out
		}
	}
	return []session.Block{{Type: session.BlockText, Text: jsonText(raw)}}
}

// jsonText returns a JSON string's value, or any other JSON as written.
func jsonText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// eventMessages reads the message events of semantic conventions before
// 1.37: system, user, assistant and tool messages are the input, choices
// the output. Their fields are in the event's attributes (a span event)
// or its body (a log record).
func eventMessages(events []event) (input, output []*session.Message) {
	for _, e := range events {
		fields := e.attrs
		if m, ok := e.body.(map[string]any); ok {
			fields = mergeAttrs(fields, m)
		}
		switch e.name {
		case evSystem:
			input = append(input, legacyMessage("system", fields)...)
		case evUser:
			input = append(input, legacyMessage("user", fields)...)
		case evAssistant:
			input = append(input, legacyMessage("assistant", fields)...)
		case evTool:
			input = append(input, legacyMessage("tool", fields)...)
		case evChoice:
			var msg map[string]any
			if raw := valueJSON(fields["message"]); raw != nil {
				_ = json.Unmarshal(raw, &msg)
			}
			out := legacyMessage("assistant", msg)
			if fr := attrString(fields, "finish_reason"); fr != "" && len(out) > 0 {
				out[len(out)-1].StopReason = fr
			}
			output = append(output, out...)
		}
	}
	return input, output
}

// legacyMessage converts the fields of a message event: content (a string
// or parts), tool_calls in chat-completions form, and id (the tool call a
// tool message answers).
func legacyMessage(role string, fields map[string]any) []*session.Message {
	if r := attrString(fields, "role"); r != "" {
		role = r
	}
	blocks := openai.Content(valueJSON(fields["content"]))
	if fields["content"] == nil {
		blocks = nil
	}
	if raw := valueJSON(fields["tool_calls"]); raw != nil {
		var calls []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"function"`
		}
		_ = json.Unmarshal(raw, &calls)
		for _, tc := range calls {
			blocks = append(blocks, session.Block{Type: session.BlockToolCall, ToolCallID: tc.ID, ToolName: tc.Function.Name, Arguments: openai.Arguments(tc.Function.Arguments)})
		}
	}
	return roleMessages(role, blocks, attrString(fields, "id"))
}

// indexedMessages reads OpenLLMetry's flattened attributes:
// gen_ai.prompt.N.role / .content / .tool_call_id and
// gen_ai.completion.N.role / .content / .finish_reason, with tool calls
// as gen_ai.completion.N.tool_calls.M.id / .name / .arguments.
func indexedMessages(attrs map[string]any) (input, output []*session.Message) {
	return indexed(attrs, "gen_ai.prompt.", "user"), indexed(attrs, "gen_ai.completion.", "assistant")
}

func indexed(attrs map[string]any, prefix, defaultRole string) []*session.Message {
	byIndex := map[int]map[string]any{}
	for k, v := range attrs {
		rest, ok := strings.CutPrefix(k, prefix)
		if !ok {
			continue
		}
		num, field, ok := strings.Cut(rest, ".")
		n, err := strconv.Atoi(num)
		if !ok || err != nil {
			continue
		}
		if byIndex[n] == nil {
			byIndex[n] = map[string]any{}
		}
		byIndex[n][field] = v
	}
	idx := make([]int, 0, len(byIndex))
	for n := range byIndex {
		idx = append(idx, n)
	}
	sort.Ints(idx)
	var out []*session.Message
	for _, n := range idx {
		f := byIndex[n]
		role := attrString(f, "role")
		if role == "" {
			role = defaultRole
		}
		var blocks []session.Block
		if c, ok := f["content"]; ok {
			blocks = openai.Content(valueJSON(c))
		}
		for m := 0; ; m++ {
			name, ok := f[fmt.Sprintf("tool_calls.%d.name", m)]
			if !ok {
				break
			}
			blocks = append(blocks, session.Block{Type: session.BlockToolCall, ToolCallID: attrString(f, fmt.Sprintf("tool_calls.%d.id", m)),
				ToolName: fmt.Sprint(name), Arguments: openai.Arguments(valueJSON(f[fmt.Sprintf("tool_calls.%d.arguments", m)]))})
		}
		msgs := roleMessages(role, blocks, attrString(f, "tool_call_id"))
		if fr := attrString(f, "finish_reason"); fr != "" && len(msgs) > 0 {
			msgs[len(msgs)-1].StopReason = fr
		}
		out = append(out, msgs...)
	}
	return out
}
