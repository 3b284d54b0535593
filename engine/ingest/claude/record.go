package claude

import (
	"github.com/valyala/fastjson"

	"ctxscope/engine/ingest/internal/norm"
)

// record is one line of a transcript. Fields of every record type share
// the struct. Lines are parsed with fastjson, which is several times
// faster than encoding/json on these long lines; toolUseResult, a
// structured copy of a tool result, is never looked at.
type record struct {
	Type              string
	Subtype           string
	UUID              string
	ParentUUID        *string
	LogicalParentUUID string
	IsSidechain       bool
	IsMeta            bool
	IsCompactSummary  bool
	SessionID         string
	AgentID           string
	Timestamp         string
	CWD               string
	Version           string

	Message *apiMessage

	// summary lines
	Summary  string
	LeafUUID string

	// title lines: custom-title (set by the user), ai-title (generated)
	CustomTitle string
	AITitle     string

	// system compact_boundary lines
	CompactTrigger   string
	CompactPreTokens int
	HasCompactMeta   bool
}

// apiMessage is an Anthropic Messages API message. Content stays a parsed
// value, valid until the decoder parses its next line.
type apiMessage struct {
	ID         string
	Role       string
	Model      string
	StopReason string
	Content    *fastjson.Value
	Usage      *usageJSON
}

type usageJSON struct {
	Input, Output, CacheRead, CacheWrite int
}

// knownTypes are the record types Claude Code writes (up to 2.1 at least)
// that carry no message: they are kept as metadata without a word. A type
// not listed here is kept too, with a warning the first time it is seen.
var knownTypes = map[string]bool{
	"user": true, "assistant": true, "system": true, "summary": true, "attachment": true, "progress": true,
	"file-history-snapshot": true, "queue-operation": true, "permission-mode": true, "mode": true,
	"ai-title": true, "custom-title": true, "agent-name": true, "agent-setting": true, "last-prompt": true,
	"pr-link": true, "frame-link": true, "started": true, "result": true, "relocated": true,
	"worktree-state": true, "bridge-session": true, "atis-latch": true, "tag": true,
	// 2.1.33x: what each request sent (wire.go), and bookkeeping.
	"api-request-shape": true, "api-request-blob": true, "api-request": true, "tools-used": true, "cost-state": true,
}

// str returns the string at key, or "" when it is missing or not a string.
func str(v *fastjson.Value, key string) string {
	return norm.FastJSONString(v.GetStringBytes(key))
}

// readRecord fills rec from a parsed line.
func readRecord(v *fastjson.Value, rec *record) {
	*rec = record{
		Type: str(v, "type"), Subtype: str(v, "subtype"), UUID: str(v, "uuid"),
		LogicalParentUUID: str(v, "logicalParentUuid"), IsSidechain: v.GetBool("isSidechain"),
		IsMeta: v.GetBool("isMeta"), IsCompactSummary: v.GetBool("isCompactSummary"),
		SessionID: str(v, "sessionId"), AgentID: str(v, "agentId"), Timestamp: str(v, "timestamp"),
		CWD: str(v, "cwd"), Version: str(v, "version"), Summary: str(v, "summary"), LeafUUID: str(v, "leafUuid"),
		CustomTitle: str(v, "customTitle"), AITitle: str(v, "aiTitle"),
	}
	if rec.AITitle == "" && rec.Type == "ai-title" {
		rec.AITitle = str(v, "title")
	}
	if p := v.Get("parentUuid"); p != nil && p.Type() == fastjson.TypeString {
		s := norm.FastJSONString(p.GetStringBytes())
		rec.ParentUUID = &s
	}
	if m := v.Get("message"); m != nil && m.Type() == fastjson.TypeObject {
		am := &apiMessage{ID: str(m, "id"), Role: str(m, "role"), Model: str(m, "model"), StopReason: str(m, "stop_reason"), Content: m.Get("content")}
		if u := m.Get("usage"); u != nil && u.Type() == fastjson.TypeObject {
			am.Usage = &usageJSON{Input: u.GetInt("input_tokens"), Output: u.GetInt("output_tokens"),
				CacheRead: u.GetInt("cache_read_input_tokens"), CacheWrite: u.GetInt("cache_creation_input_tokens")}
		}
		rec.Message = am
	}
	if c := v.Get("compactMetadata"); c != nil && c.Type() == fastjson.TypeObject {
		rec.HasCompactMeta, rec.CompactTrigger, rec.CompactPreTokens = true, str(c, "trigger"), c.GetInt("preTokens")
	}
}
