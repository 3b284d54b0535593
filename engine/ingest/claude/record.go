package claude

import "encoding/json"

// record is one line of a transcript. Fields of every record type share
// the struct. toolUseResult, a structured copy of a tool result, is
// deliberately not decoded.
type record struct {
	Type              string  `json:"type"`
	Subtype           string  `json:"subtype"`
	UUID              string  `json:"uuid"`
	ParentUUID        *string `json:"parentUuid"`
	LogicalParentUUID string  `json:"logicalParentUuid"`
	IsSidechain       bool    `json:"isSidechain"`
	IsMeta            bool    `json:"isMeta"`
	IsCompactSummary  bool    `json:"isCompactSummary"`
	SessionID         string  `json:"sessionId"`
	AgentID           string  `json:"agentId"`
	Timestamp         string  `json:"timestamp"`
	CWD               string  `json:"cwd"`
	Version           string  `json:"version"`

	Message *apiMessage `json:"message"`

	// summary lines
	Summary  string `json:"summary"`
	LeafUUID string `json:"leafUuid"`

	// system lines
	CompactMetadata *struct {
		Trigger   string `json:"trigger"`
		PreTokens int    `json:"preTokens"`
	} `json:"compactMetadata"`
}

// apiMessage is an Anthropic Messages API message.
type apiMessage struct {
	ID         string          `json:"id"`
	Role       string          `json:"role"`
	Model      string          `json:"model"`
	StopReason string          `json:"stop_reason"`
	Content    json.RawMessage `json:"content"`
	Usage      *usageJSON      `json:"usage"`
}

type usageJSON struct {
	Input      int `json:"input_tokens"`
	Output     int `json:"output_tokens"`
	CacheRead  int `json:"cache_read_input_tokens"`
	CacheWrite int `json:"cache_creation_input_tokens"`
}

// contentBlock is one block of a message's content. Image and document
// data are deliberately not decoded.
type contentBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Data      string          `json:"data"` // redacted_thinking
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Source    *struct {
		MediaType string `json:"media_type"`
	} `json:"source"`
}
