package pi

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/valyala/fastjson"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// decodeMessage turns a parsed AgentMessage into a normalized message.
// Problems that leave the message usable are returned as warnings.
func decodeMessage(v *fastjson.Value) (*session.Message, []string, error) {
	if v == nil || v.Type() != fastjson.TypeObject {
		return nil, nil, fmt.Errorf("invalid message: expected a JSON object")
	}
	f := fields{v: v}
	role := f.str("role")
	m := &session.Message{Time: msTime(f.float("timestamp"))}
	var warns []string
	blocks, err := decodeContent(f.value("content"))
	if err != nil {
		return nil, nil, fmt.Errorf("%s message: %w", role, err)
	}
	switch role {
	case "user":
		m.Role = session.RoleUser
		m.Blocks = blocks
	case "assistant":
		m.Role = session.RoleAssistant
		m.Blocks = blocks
		m.ID = f.str("responseId")
		m.Provider, m.Model, m.StopReason, m.Error = f.str("provider"), f.str("model"), f.str("stopReason"), f.str("errorMessage")
		m.Usage = decodeUsage(f.object("usage"))
	case "toolResult":
		m.Role = session.RoleTool
		m.Blocks = []session.Block{{Type: session.BlockToolResult, ToolCallID: f.str("toolCallId"), ToolName: f.str("toolName"),
			Content: blocks, IsError: f.bool("isError"), Details: raw(f.value("details"))}}
		if m.Blocks[0].ToolCallID == "" {
			warns = append(warns, "toolResult without toolCallId")
		}
	case "bashExecution":
		m.Role, m.Origin = session.RoleUser, session.OriginBashExecution
		m.Blocks = []session.Block{{Type: session.BlockText, Text: f.str("command")}, {Type: session.BlockText, Text: f.str("output")}}
		m.Excluded = f.bool("excludeFromContext")
	case "custom", "hookMessage":
		m.Role, m.Origin = session.RoleUser, session.OriginCustom
		m.Blocks = blocks
	case "branchSummary":
		m.Role, m.Origin = session.RoleUser, session.OriginBranchSummary
		m.Blocks = []session.Block{{Type: session.BlockText, Text: f.str("summary")}}
	case "compactionSummary":
		m.Role, m.Origin = session.RoleUser, session.OriginCompactionSummary
		m.Blocks = []session.Block{{Type: session.BlockText, Text: f.str("summary")}}
	case "":
		if f.err != nil {
			return nil, nil, fmt.Errorf("invalid message: %v", f.err)
		}
		return nil, nil, fmt.Errorf("message without a role")
	default:
		return nil, nil, fmt.Errorf("unknown message role %q", role)
	}
	if f.err != nil {
		return nil, nil, fmt.Errorf("invalid %s message: %v", role, f.err)
	}
	return m, warns, nil
}

// decodeUsage reads an assistant message's usage and its total cost; nil
// when the message has none.
func decodeUsage(v *fastjson.Value) *session.Usage {
	if v == nil {
		return nil
	}
	f := fields{v: v}
	u := &session.Usage{Input: f.int("input"), Output: f.int("output"), CacheRead: f.int("cacheRead"), CacheWrite: f.int("cacheWrite")}
	if c := f.object("cost"); c != nil {
		cf := fields{v: c}
		u.Cost = cf.float("total")
	}
	return u
}

// decodeContent reads content that is either a string or a list of blocks.
// Image data is not kept.
func decodeContent(v *fastjson.Value) ([]session.Block, error) {
	switch {
	case v == nil:
		return nil, nil
	case v.Type() == fastjson.TypeString:
		return []session.Block{{Type: session.BlockText, Text: norm.FastJSONString(v.GetStringBytes())}}, nil
	case v.Type() != fastjson.TypeArray:
		return nil, fmt.Errorf("invalid content: expected a string or an array, got JSON %s", v.Type())
	}
	items, _ := v.Array()
	out := make([]session.Block, 0, len(items))
	for i, c := range items {
		if c.Type() != fastjson.TypeObject {
			return nil, fmt.Errorf("invalid content: block %d is JSON %s, not an object", i, c.Type())
		}
		f := fields{v: c}
		var b session.Block
		switch t := f.str("type"); t {
		case "text":
			b = session.Block{Type: session.BlockText, Text: f.str("text")}
		case "thinking":
			b = session.Block{Type: session.BlockThinking, Text: f.str("thinking")}
			if f.bool("redacted") { // an encrypted payload in place of the thinking
				b = session.Block{Type: session.BlockOpaque, Size: len(b.Text)}
			}
		case "toolCall":
			b = session.Block{Type: session.BlockToolCall, ToolCallID: f.str("id"), ToolName: f.str("name"), Arguments: raw(f.value("arguments"))}
		case "image":
			b = session.Block{Type: session.BlockImage, MIME: f.str("mimeType")}
		default:
			return nil, fmt.Errorf("content block %d has unknown type %q", i, t)
		}
		if f.err != nil {
			return nil, fmt.Errorf("invalid content: block %d: %v", i, f.err)
		}
		out = append(out, b)
	}
	return out, nil
}

// msTime converts pi's unix-millisecond message timestamps.
func msTime(ms float64) time.Time {
	if ms > 0 && ms < 1e15 {
		return time.UnixMilli(int64(ms)).UTC()
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
