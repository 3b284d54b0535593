package pi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"ctxscope/engine/session"
)

// decodeMessage turns a raw AgentMessage into a normalized message. Problems
// that leave the message usable are returned as warnings.
func decodeMessage(raw json.RawMessage) (*session.Message, []string, error) {
	var am agentMessage
	if err := json.Unmarshal(raw, &am); err != nil {
		return nil, nil, fmt.Errorf("invalid message: %s", jsonError(err))
	}
	m := &session.Message{Time: msTime(am.Timestamp)}
	var warns []string
	blocks, err := decodeContent(am.Content)
	if err != nil {
		return nil, nil, fmt.Errorf("%s message: %w", am.Role, err)
	}
	switch am.Role {
	case "user":
		m.Role = session.RoleUser
		m.Blocks = blocks
	case "assistant":
		m.Role = session.RoleAssistant
		m.Blocks = blocks
		m.ID = am.ResponseID
		m.Provider, m.Model, m.StopReason, m.Error = am.Provider, am.Model, am.StopReason, am.ErrorMessage
		if u := am.Usage; u != nil {
			m.Usage = &session.Usage{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite}
			if u.Cost != nil {
				m.Usage.Cost = u.Cost.Total
			}
		}
	case "toolResult":
		m.Role = session.RoleTool
		if am.ToolCallID == "" {
			warns = append(warns, "toolResult without toolCallId")
		}
		m.Blocks = []session.Block{{
			Type:       session.BlockToolResult,
			ToolCallID: am.ToolCallID,
			ToolName:   am.ToolName,
			Content:    blocks,
			IsError:    am.IsError,
			Details:    nonNull(am.Details),
		}}
	case "bashExecution":
		m.Role, m.Origin = session.RoleUser, session.OriginBashExecution
		m.Blocks = []session.Block{{Type: session.BlockText, Text: am.Command}, {Type: session.BlockText, Text: am.Output}}
		m.Excluded = am.ExcludeFromContext
	case "custom", "hookMessage":
		m.Role, m.Origin = session.RoleUser, session.OriginCustom
		m.Blocks = blocks
	case "branchSummary":
		m.Role, m.Origin = session.RoleUser, session.OriginBranchSummary
		m.Blocks = []session.Block{{Type: session.BlockText, Text: am.Summary}}
	case "compactionSummary":
		m.Role, m.Origin = session.RoleUser, session.OriginCompactionSummary
		m.Blocks = []session.Block{{Type: session.BlockText, Text: am.Summary}}
	case "":
		return nil, nil, fmt.Errorf("message without a role")
	default:
		return nil, nil, fmt.Errorf("unknown message role %q", am.Role)
	}
	return m, warns, nil
}

// decodeContent reads content that is either a string or a list of blocks.
func decodeContent(raw json.RawMessage) ([]session.Block, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("invalid content: %s", jsonError(err))
		}
		return []session.Block{{Type: session.BlockText, Text: s}}, nil
	}
	var cbs []contentBlock
	if err := json.Unmarshal(raw, &cbs); err != nil {
		return nil, fmt.Errorf("invalid content: %s", jsonError(err))
	}
	out := make([]session.Block, 0, len(cbs))
	for i, c := range cbs {
		switch c.Type {
		case "text":
			out = append(out, session.Block{Type: session.BlockText, Text: c.Text})
		case "thinking":
			out = append(out, session.Block{Type: session.BlockThinking, Text: c.Thinking, Redacted: c.Redacted})
		case "toolCall":
			out = append(out, session.Block{Type: session.BlockToolCall, ToolCallID: c.ID, ToolName: c.Name, Arguments: nonNull(c.Arguments)})
		case "image":
			out = append(out, session.Block{Type: session.BlockImage, MIME: c.MimeType})
		default:
			return nil, fmt.Errorf("content block %d has unknown type %q", i, c.Type)
		}
	}
	return out, nil
}

func nonNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	return raw
}

// msTime converts pi's unix-millisecond message timestamps.
func msTime(n json.Number) time.Time {
	if ms, err := n.Int64(); err == nil && ms > 0 {
		return time.UnixMilli(ms).UTC()
	}
	if f, err := n.Float64(); err == nil && f > 0 {
		return time.UnixMilli(int64(f)).UTC()
	}
	return time.Time{}
}

// isoTime parses an entry timestamp; a bad one yields the zero time.
func isoTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// jsonError shortens encoding/json's messages to what a user needs.
func jsonError(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("%s (at byte %d)", se.Error(), se.Offset)
	case errors.As(err, &te):
		if te.Field != "" {
			return fmt.Sprintf("field %q: expected %s, got JSON %s", te.Field, te.Type, te.Value)
		}
		return fmt.Sprintf("expected %s, got JSON %s", te.Type, te.Value)
	}
	return err.Error()
}
