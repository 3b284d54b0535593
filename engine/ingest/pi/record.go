package pi

import "encoding/json"

// entryRecord is one line of a session file. Fields of every entry type
// share the struct; which ones are set depends on Type.
type entryRecord struct {
	Type      string  `json:"type"`
	ID        *string `json:"id"`
	ParentID  *string `json:"parentId"`
	Timestamp string  `json:"timestamp"`

	// session header
	Version       int    `json:"version"`
	CWD           string `json:"cwd"`
	Provider      string `json:"provider"`
	ModelID       string `json:"modelId"`
	ThinkingLevel string `json:"thinkingLevel"`
	ParentSession string `json:"parentSession"`
	BranchedFrom  string `json:"branchedFrom"`

	// message
	Message json.RawMessage `json:"message"`

	// compaction and branch_summary
	Summary             string `json:"summary"`
	FirstKeptEntryID    string `json:"firstKeptEntryId"`
	FirstKeptEntryIndex *int   `json:"firstKeptEntryIndex"`
	TokensBefore        int    `json:"tokensBefore"`
	FromID              string `json:"fromId"`

	// custom and custom_message
	CustomType string          `json:"customType"`
	Content    json.RawMessage `json:"content"`

	// label and session_info
	TargetID string  `json:"targetId"`
	Label    *string `json:"label"`
	Name     *string `json:"name"`
}

// agentMessage is a pi AgentMessage of any role.
type agentMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Timestamp json.Number     `json:"timestamp"`

	// assistant
	Provider     string     `json:"provider"`
	Model        string     `json:"model"`
	StopReason   string     `json:"stopReason"`
	ErrorMessage string     `json:"errorMessage"`
	ResponseID   string     `json:"responseId"`
	Usage        *usageJSON `json:"usage"`

	// toolResult
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Details    json.RawMessage `json:"details"`
	IsError    bool            `json:"isError"`

	// bashExecution
	Command            string `json:"command"`
	Output             string `json:"output"`
	ExitCode           *int   `json:"exitCode"`
	ExcludeFromContext bool   `json:"excludeFromContext"`

	// custom, branchSummary, compactionSummary
	CustomType string `json:"customType"`
	Summary    string `json:"summary"`
}

type usageJSON struct {
	Input      int `json:"input"`
	Output     int `json:"output"`
	CacheRead  int `json:"cacheRead"`
	CacheWrite int `json:"cacheWrite"`
	Cost       *struct {
		Total float64 `json:"total"`
	} `json:"cost"`
}

// contentBlock is one block of an AgentMessage's content. Image data is
// deliberately not decoded.
type contentBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Redacted  bool            `json:"redacted"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	MimeType  string          `json:"mimeType"`
}
