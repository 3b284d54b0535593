package session

import (
	"encoding/json"
	"time"
)

// Role is the normalized author of a message.
type Role string

// Message roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool" // tool results
)

// Origins name source message types that the normalized role does not
// capture. They matter for token accounting and for eviction, which follow
// the source agent's rules for them.
const (
	OriginBashExecution     = "bashExecution"     // pi: output of a user's !command, sent as user text
	OriginCustom            = "custom"            // pi: an extension's message, sent as user text
	OriginBranchSummary     = "branchSummary"     // pi: summary of an abandoned branch
	OriginCompactionSummary = "compactionSummary" // a compaction's summary, sent in place of old context
	OriginAgentMessage      = "agentMessage"      // a message another agent of the session sent (Codex multi-agent)
	OriginRequestShape      = "requestShape"      // a system message read from the request as sent: its system prompt and tool schemas (Claude Code's request records, the recording proxy)
	// OriginEcho is an assistant message that a request carried as
	// context but that is no response of the thread as recorded (the
	// agent rewrote its history): it is context, not a request.
	OriginEcho = "echo"
)

// Message is one message sent to or received from a model.
type Message struct {
	Role Role `json:"role"`
	// Origin is the source's own message type when Role alone loses it; see
	// the Origin constants. Empty for ordinary messages.
	Origin string  `json:"origin,omitempty"`
	Blocks []Block `json:"blocks"`

	ID         string    `json:"id,omitempty"` // the provider's message id, when recorded
	Provider   string    `json:"provider,omitempty"`
	Model      string    `json:"model,omitempty"`
	StopReason string    `json:"stopReason,omitempty"`
	Error      string    `json:"error,omitempty"` // the error the request ended with, if any
	Usage      *Usage    `json:"usage,omitempty"` // provider-reported usage of the request
	Time       time.Time `json:"time"`
	// Excluded marks a message the source agent recorded but kept out of the
	// model's context (pi's bashExecution with excludeFromContext).
	Excluded bool `json:"excluded,omitempty"`
}

// BlockType is the kind of a content block.
type BlockType string

// Block types.
const (
	BlockText       BlockType = "text"
	BlockThinking   BlockType = "thinking"
	BlockToolCall   BlockType = "tool_call"
	BlockToolResult BlockType = "tool_result"
	BlockImage      BlockType = "image"
	// BlockOpaque is a payload the provider gave in a form no one can
	// read, such as encrypted reasoning (OpenAI's encrypted_content) or
	// redacted thinking: it has no text, only its size in bytes. The
	// provider decrypts it and counts it as input, so its real cost shows
	// only in the reported usage; no text counter counts it.
	BlockOpaque BlockType = "opaque"
)

// Block is one piece of a message's content.
type Block struct {
	Type BlockType `json:"type"`
	// Text is the text of a text or thinking block.
	Text string `json:"text,omitempty"`
	// Redacted marks thinking whose content the provider encrypted or
	// withheld; its Text, if any, is an opaque payload and is never shown.
	Redacted bool `json:"redacted,omitempty"`

	// ToolCallID links a tool call to its result.
	ToolCallID string `json:"toolCallId,omitempty"`
	// ToolName is the called tool, on calls and (when recorded) on results.
	ToolName string `json:"toolName,omitempty"`
	// Arguments are a tool call's arguments exactly as the source wrote them
	// (usually a JSON object; key order is preserved).
	Arguments json.RawMessage `json:"arguments,omitempty"`

	// Content is a tool result's content: text and image blocks.
	Content []Block `json:"content,omitempty"`
	// IsError marks a tool result that reports a failure.
	IsError bool `json:"isError,omitempty"`
	// Details is a tool result's structured side data, such as a pi
	// delimiter's chunkEvent.
	Details json.RawMessage `json:"details,omitempty"`

	// MIME is an image's media type. Image data is not kept.
	MIME string `json:"mime,omitempty"`
	// Size is the byte length of an opaque block's payload, which is not
	// kept.
	Size int `json:"size,omitempty"`
	// Implicit marks a tool call read out of the message's own text: the
	// command of an agent that writes its actions as text (SWE-agent 0.x,
	// mini-swe-agent's text mode). The model sees it only as part of the
	// text, so counters count the text and not the call; the call is there
	// so that the observation that follows is its result.
	Implicit bool `json:"implicit,omitempty"`
}

// Usage is the token usage a provider reported for one request.
type Usage struct {
	Input      int     `json:"input"`               // uncached input tokens
	Output     int     `json:"output"`              // output tokens, reasoning included
	CacheRead  int     `json:"cacheRead"`           // input tokens read from the prompt cache
	CacheWrite int     `json:"cacheWrite"`          // input tokens written to the prompt cache
	Reasoning  int     `json:"reasoning,omitempty"` // of Output, the tokens spent reasoning, when reported
	Cost       float64 `json:"cost,omitempty"`      // in US dollars, when the source recorded it
	// ContextWindow is the model's context window, when the source
	// recorded it with the request (Codex does).
	ContextWindow int `json:"contextWindow,omitempty"`
}

// Add adds o's token counts and cost to u (not the context window, which
// is a size, not a count).
func (u *Usage) Add(o Usage) {
	u.Input += o.Input
	u.Output += o.Output
	u.CacheRead += o.CacheRead
	u.CacheWrite += o.CacheWrite
	u.Reasoning += o.Reasoning
	u.Cost += o.Cost
}

// Prompt returns the request's whole input as the provider counted it:
// uncached, cache-read and cache-write tokens together.
func (u Usage) Prompt() int { return u.Input + u.CacheRead + u.CacheWrite }

// IsUser reports whether the message is a turn the user typed, as opposed
// to a tool result or something the agent injected as user text.
func (m *Message) IsUser() bool { return m.Role == RoleUser && m.Origin == "" }

// ToolCalls returns the message's tool-call blocks in order.
func (m *Message) ToolCalls() []*Block { return m.blocksOf(BlockToolCall) }

// ToolResults returns the message's tool-result blocks in order.
func (m *Message) ToolResults() []*Block { return m.blocksOf(BlockToolResult) }

func (m *Message) blocksOf(t BlockType) []*Block {
	var out []*Block
	for i := range m.Blocks {
		if m.Blocks[i].Type == t {
			out = append(out, &m.Blocks[i])
		}
	}
	return out
}

// ResultText returns the text of a tool-result block: its text parts joined
// by newlines.
func (b *Block) ResultText() string {
	if len(b.Content) == 1 && b.Content[0].Type == BlockText {
		return b.Content[0].Text
	}
	n := 0
	for _, c := range b.Content {
		n += len(c.Text) + 1
	}
	buf := make([]byte, 0, n)
	for _, c := range b.Content {
		if c.Type != BlockText {
			continue
		}
		if len(buf) > 0 {
			buf = append(buf, '\n')
		}
		buf = append(buf, c.Text...)
	}
	return string(buf)
}
