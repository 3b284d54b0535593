package claude

import (
	"fmt"
	"strings"

	"github.com/valyala/fastjson"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// decodeContent reads message content, a string or a list of blocks, into
// normalized blocks. Blocks of unknown types are returned as warnings and
// skipped.
func decodeContent(v *fastjson.Value) ([]session.Block, []string, error) {
	switch {
	case v == nil || v.Type() == fastjson.TypeNull:
		return nil, nil, nil
	case v.Type() == fastjson.TypeString:
		return []session.Block{{Type: session.BlockText, Text: norm.FastJSONString(v.GetStringBytes())}}, nil, nil
	case v.Type() != fastjson.TypeArray:
		return nil, nil, fmt.Errorf("content: expected a string or a list of blocks, got %s", v.Type())
	}
	items, _ := v.Array()
	out := make([]session.Block, 0, len(items))
	var warns []string
	for i, c := range items {
		if c.Type() != fastjson.TypeObject {
			return nil, nil, fmt.Errorf("content block %d: expected an object, got %s", i, c.Type())
		}
		b, ok := convertBlock(c)
		if !ok {
			warns = append(warns, fmt.Sprintf("content block %d of unknown type %q skipped", i, str(c, "type")))
			continue
		}
		out = append(out, b)
	}
	return out, warns, nil
}

func convertBlock(c *fastjson.Value) (session.Block, bool) {
	switch typ := str(c, "type"); {
	case typ == "text":
		return session.Block{Type: session.BlockText, Text: str(c, "text")}, true
	case typ == "thinking":
		return session.Block{Type: session.BlockThinking, Text: str(c, "thinking")}, true
	case typ == "redacted_thinking":
		return session.Block{Type: session.BlockOpaque, Size: len(c.GetStringBytes("data"))}, true
	case typ == "tool_use" || typ == "server_tool_use":
		return session.Block{Type: session.BlockToolCall, ToolCallID: str(c, "id"), ToolName: str(c, "name"), Arguments: rawJSON(c.Get("input"))}, true
	case typ == "image" || typ == "document":
		return session.Block{Type: session.BlockImage, MIME: string(c.GetStringBytes("source", "media_type"))}, true
	case typ == "tool_result" || strings.HasSuffix(typ, "_tool_result"):
		return session.Block{Type: session.BlockToolResult, ToolCallID: str(c, "tool_use_id"), Content: resultContent(c.Get("content")),
			IsError: c.GetBool("is_error")}, true
	}
	return session.Block{}, false
}

// resultContent reads a tool result's content: a string, or a list of text
// and image blocks. Other blocks (a web search's results) and other values
// are kept as their JSON text.
func resultContent(v *fastjson.Value) []session.Block {
	switch {
	case v == nil || v.Type() == fastjson.TypeNull:
		return nil
	case v.Type() == fastjson.TypeString:
		return []session.Block{{Type: session.BlockText, Text: norm.FastJSONString(v.GetStringBytes())}}
	case v.Type() != fastjson.TypeArray:
		return []session.Block{{Type: session.BlockText, Text: string(v.MarshalTo(nil))}}
	}
	items, _ := v.Array()
	out := make([]session.Block, 0, len(items))
	for _, p := range items {
		switch str(p, "type") {
		case "text":
			out = append(out, session.Block{Type: session.BlockText, Text: str(p, "text")})
		case "image", "document":
			out = append(out, session.Block{Type: session.BlockImage, MIME: string(p.GetStringBytes("source", "media_type"))})
		default:
			out = append(out, session.Block{Type: session.BlockText, Text: string(p.MarshalTo(nil))})
		}
	}
	return out
}

// rawJSON returns v re-encoded as compact JSON (key order kept), or nil
// for a missing or null value.
func rawJSON(v *fastjson.Value) []byte {
	if v == nil || v.Type() == fastjson.TypeNull {
		return nil
	}
	return v.MarshalTo(nil)
}
