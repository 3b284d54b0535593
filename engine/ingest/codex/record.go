package codex

import (
	"ctxscope/engine/session"
	"encoding/json"
)

// line is one rollout line in either layout. Modern lines fill Type,
// Timestamp and Payload; legacy header lines fill ID and Instructions;
// legacy state lines fill RecordType; legacy items are decoded again as
// an item.
type line struct {
	Timestamp    string          `json:"timestamp"`
	Type         string          `json:"type"`
	Payload      json.RawMessage `json:"payload"`
	RecordType   string          `json:"record_type"`
	ID           string          `json:"id"`
	Instructions *string         `json:"instructions"`
}

// sessionMeta is the payload of a session_meta record.
type sessionMeta struct {
	ID               string          `json:"id"`
	Timestamp        string          `json:"timestamp"`
	CWD              string          `json:"cwd"`
	Originator       string          `json:"originator"`
	CLIVersion       string          `json:"cli_version"`
	Source           json.RawMessage `json:"source"`
	ParentThreadID   string          `json:"parent_thread_id"`
	Instructions     *string         `json:"instructions"`
	BaseInstructions *struct {
		Text string `json:"text"`
	} `json:"base_instructions"`
}

// item is a Responses API item (the payload of a response_item, or a bare
// legacy line).
type item struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Action    json.RawMessage `json:"action"`
	Status    string          `json:"status"`
	Summary   []struct {
		Text string `json:"text"`
	} `json:"summary"`
	Encrypted     string `json:"encrypted_content"`
	RevisedPrompt string `json:"revised_prompt"`
}

// event is the payload of an event_msg record.
type event struct {
	Type string `json:"type"`
	Info *struct {
		Last          *tokenUsage `json:"last_token_usage"`
		Total         *tokenUsage `json:"total_token_usage"`
		ContextWindow int         `json:"model_context_window"`
	} `json:"info"`
}

type tokenUsage struct {
	Input     int `json:"input_tokens"` // cached tokens included
	Cached    int `json:"cached_input_tokens"`
	Output    int `json:"output_tokens"`
	Reasoning int `json:"reasoning_output_tokens"`
	// cache_write_input_tokens (0.17x) is not read: it was 0 in every run
	// here, and whether input_tokens includes it is not documented.
}

// usageRecord is the payload of a token_usage_record (Codex 0.17x): one
// response's usage.
type usageRecord struct {
	ResponseID string      `json:"response_id"`
	Usage      *tokenUsage `json:"usage"`
}

// usage converts Codex's counts, whose input includes the cached tokens.
func (u *tokenUsage) usage() session.Usage {
	return session.Usage{Input: u.Input - u.Cached, CacheRead: u.Cached, Output: u.Output, Reasoning: u.Reasoning}
}

// turnContext is the payload of a turn_context record.
type turnContext struct {
	Model string `json:"model"`
}

// compacted is the payload of a compacted record. Newer versions leave
// Message empty and give the context that replaces the history as items.
type compacted struct {
	Message            string `json:"message"`
	ReplacementHistory []item `json:"replacement_history"`
}

// part is one part of a message's content or of a structured output.
type part struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	Encrypted string `json:"encrypted_content"`
}
