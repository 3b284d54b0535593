package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// decodeContent reads message content, a string or a list of blocks, into
// normalized blocks. Blocks of unknown types are returned as warnings and
// skipped.
func decodeContent(raw json.RawMessage) ([]session.Block, []string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, nil, fmt.Errorf("content: %s", norm.JSONError(err))
		}
		return []session.Block{{Type: session.BlockText, Text: s}}, nil, nil
	}
	var cbs []contentBlock
	if err := json.Unmarshal(raw, &cbs); err != nil {
		return nil, nil, fmt.Errorf("content: %s", norm.JSONError(err))
	}
	out := make([]session.Block, 0, len(cbs))
	var warns []string
	for i := range cbs {
		b, ok, err := convertBlock(&cbs[i])
		if err != nil {
			return nil, nil, fmt.Errorf("content block %d: %w", i, err)
		}
		if !ok {
			warns = append(warns, fmt.Sprintf("content block %d of unknown type %q skipped", i, cbs[i].Type))
			continue
		}
		out = append(out, b)
	}
	return out, warns, nil
}

func convertBlock(c *contentBlock) (session.Block, bool, error) {
	switch c.Type {
	case "text":
		return session.Block{Type: session.BlockText, Text: c.Text}, true, nil
	case "thinking":
		return session.Block{Type: session.BlockThinking, Text: c.Thinking}, true, nil
	case "redacted_thinking":
		return session.Block{Type: session.BlockThinking, Text: c.Data, Redacted: true}, true, nil
	case "tool_use", "server_tool_use":
		return session.Block{Type: session.BlockToolCall, ToolCallID: c.ID, ToolName: c.Name, Arguments: norm.NonNull(c.Input)}, true, nil
	case "image", "document":
		b := session.Block{Type: session.BlockImage}
		if c.Source != nil {
			b.MIME = c.Source.MediaType
		}
		return b, true, nil
	}
	if c.Type == "tool_result" || strings.HasSuffix(c.Type, "_tool_result") {
		content, err := resultContent(c.Content)
		if err != nil {
			return session.Block{}, false, err
		}
		return session.Block{Type: session.BlockToolResult, ToolCallID: c.ToolUseID, Content: content, IsError: c.IsError}, true, nil
	}
	return session.Block{}, false, nil
}

// resultContent reads a tool result's content: a string, or a list of
// text and image blocks. Other blocks (a web search's results) are kept as
// their JSON text.
func resultContent(raw json.RawMessage) ([]session.Block, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("tool result: %s", norm.JSONError(err))
		}
		return []session.Block{{Type: session.BlockText, Text: s}}, nil
	}
	if raw[0] != '[' {
		return []session.Block{{Type: session.BlockText, Text: string(raw)}}, nil
	}
	var parts []json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, fmt.Errorf("tool result: %s", norm.JSONError(err))
	}
	out := make([]session.Block, 0, len(parts))
	for _, p := range parts {
		var c contentBlock
		if err := json.Unmarshal(p, &c); err != nil {
			out = append(out, session.Block{Type: session.BlockText, Text: string(p)})
			continue
		}
		switch c.Type {
		case "text":
			out = append(out, session.Block{Type: session.BlockText, Text: c.Text})
		case "image", "document":
			b := session.Block{Type: session.BlockImage}
			if c.Source != nil {
				b.MIME = c.Source.MediaType
			}
			out = append(out, b)
		default:
			out = append(out, session.Block{Type: session.BlockText, Text: string(p)})
		}
	}
	return out, nil
}
