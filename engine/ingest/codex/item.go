package codex

import (
	"bytes"
	"encoding/json"
	"time"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/ingest/openai"
	"ctxscope/engine/session"
)

type timeT = time.Time

// item converts one Responses API item.
func (d *decoder) item(raw json.RawMessage, n int, ts timeT) {
	var it item
	if err := json.Unmarshal(raw, &it); err != nil {
		norm.Diag(d.s, d.file, n, session.SeverityError, "response item: %s; line skipped", norm.JSONError(err))
		return
	}
	switch it.Type {
	case "message":
		d.message(&it, n, ts)
	case "reasoning":
		d.output(n, ts, reasoningBlocks(&it)...)
	case "function_call":
		d.output(n, ts, session.Block{Type: session.BlockToolCall, ToolCallID: it.CallID, ToolName: it.Name, Arguments: openai.Arguments(it.Arguments)})
	case "custom_tool_call":
		d.output(n, ts, session.Block{Type: session.BlockToolCall, ToolCallID: it.CallID, ToolName: it.Name, Arguments: openai.Arguments(it.Input)})
	case "local_shell_call":
		d.output(n, ts, session.Block{Type: session.BlockToolCall, ToolCallID: it.CallID, ToolName: "local_shell", Arguments: norm.NonNull(it.Action)})
	case "web_search_call":
		d.output(n, ts, session.Block{Type: session.BlockToolCall, ToolCallID: it.CallID, ToolName: "web_search", Arguments: norm.NonNull(it.Action)})
	case "tool_search_call":
		d.output(n, ts, session.Block{Type: session.BlockToolCall, ToolCallID: it.CallID, ToolName: "tool_search", Arguments: openai.Arguments(it.Arguments)})
	case "image_generation_call":
		args, _ := json.Marshal(map[string]string{"prompt": it.RevisedPrompt})
		d.output(n, ts, session.Block{Type: session.BlockToolCall, ToolCallID: it.CallID, ToolName: "image_generation", Arguments: args})
	case "agent_message":
		// A message from another agent of the session (multi-agent mode):
		// input to this one, like a user's, but not typed by the user.
		d.open = nil
		e := d.add(n, ts, session.EntryMessage, it.Type)
		e.Message = &session.Message{Role: session.RoleUser, Origin: session.OriginAgentMessage, Time: ts, Blocks: contentBlocks(it.Content)}
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output", "tool_search_output":
		d.open = nil
		e := d.add(n, ts, session.EntryMessage, it.Type)
		e.Message = &session.Message{Role: session.RoleTool, Time: ts, Blocks: []session.Block{{
			Type: session.BlockToolResult, ToolCallID: it.CallID, Content: outputBlocks(it.Output),
		}}}
	default:
		d.open = nil
		d.meta(n, ts, it.Type, raw)
	}
}

func (d *decoder) message(it *item, n int, ts timeT) {
	blocks := contentBlocks(it.Content)
	if it.Role == "assistant" {
		d.output(n, ts, blocks...)
		return
	}
	d.open = nil
	role := session.RoleUser
	if it.Role == "developer" || it.Role == "system" {
		role = session.RoleSystem
	}
	e := d.add(n, ts, session.EntryMessage, "message")
	e.Message = &session.Message{Role: role, Time: ts, Blocks: blocks}
}

// output adds model output to the open response, or opens one.
func (d *decoder) output(n int, ts timeT, blocks ...session.Block) {
	if d.open != nil {
		d.open.Message.Blocks = append(d.open.Message.Blocks, blocks...)
		d.out = append(d.out, jsonl.Update{Thread: d.t, Entry: d.open, Merged: true})
		return
	}
	e := d.add(n, ts, session.EntryMessage, "response")
	e.Message = &session.Message{Role: session.RoleAssistant, Provider: "openai", Model: d.model, Time: ts, Blocks: blocks}
	d.open, d.last = e, e
}

// reasoningBlocks returns a reasoning item's readable summary and content
// as thinking, and its encrypted content as an opaque block of its size:
// the blob is not text, and only the provider's usage counts it.
func reasoningBlocks(it *item) []session.Block {
	var out []session.Block
	var buf bytes.Buffer
	for _, s := range it.Summary {
		if buf.Len() > 0 {
			buf.WriteString("\n\n")
		}
		buf.WriteString(s.Text)
	}
	for _, p := range parts(it.Content) {
		if buf.Len() > 0 {
			buf.WriteString("\n\n")
		}
		buf.WriteString(p.Text)
	}
	if buf.Len() > 0 {
		out = append(out, session.Block{Type: session.BlockThinking, Text: buf.String()})
	}
	if it.Encrypted != "" {
		out = append(out, session.Block{Type: session.BlockOpaque, Size: len(it.Encrypted)})
	}
	return out
}

// contentBlocks converts message content: input_text, output_text and
// input_image parts, or a plain string.
func contentBlocks(raw json.RawMessage) []session.Block {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return norm.Text(s)
		}
	}
	var out []session.Block
	for _, p := range parts(raw) {
		switch p.Type {
		case "input_image":
			out = append(out, session.Block{Type: session.BlockImage})
		case "encrypted_content":
			out = append(out, session.Block{Type: session.BlockOpaque, Size: len(p.Encrypted)})
		default:
			out = append(out, session.Block{Type: session.BlockText, Text: p.Text})
		}
	}
	return out
}

func parts(raw json.RawMessage) []part {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var ps []part
	_ = json.Unmarshal(raw, &ps) // malformed parts read as none
	return ps
}

// outputBlocks converts a call's output: a string, a list of parts, or any
// other JSON, kept as its text.
func outputBlocks(raw json.RawMessage) []session.Block {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
		return nil
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return []session.Block{{Type: session.BlockText, Text: s}}
		}
	case raw[0] == '[':
		if bs := contentBlocks(raw); bs != nil {
			return bs
		}
	}
	return []session.Block{{Type: session.BlockText, Text: string(raw)}}
}
