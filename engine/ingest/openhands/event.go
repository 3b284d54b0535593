package openhands

import (
	"encoding/json"
	"strings"

	"ctxscope/engine/ingest/internal/norm"
)

// event is one OpenHands V0 event (the legacy OpenHands server and its
// evaluation and resolver runs). Its extras and the model response's input
// are deliberately not decoded beyond what normalization needs.
type event struct {
	ID          json.Number     `json:"id"`
	Timestamp   string          `json:"timestamp"`
	Source      string          `json:"source"`
	Message     string          `json:"message"`
	Action      string          `json:"action"`
	Observation string          `json:"observation"`
	Args        json.RawMessage `json:"args"`
	Content     string          `json:"content"`
	Cause       json.RawMessage `json:"cause"`
	// Thought, WaitForResponse and ExitCode are read where a flat event
	// (the 2024 resolver's) has them at its top level; Extras where an
	// observation nests them.
	Thought         string `json:"thought"`
	WaitForResponse bool   `json:"wait_for_response"`
	ExitCode        *int   `json:"exit_code"`
	Extras          *struct {
		ExitCode *int `json:"exit_code"`
	} `json:"extras"`
	ToolCall *struct {
		FunctionName  string         `json:"function_name"`
		ToolCallID    string         `json:"tool_call_id"`
		ModelResponse *modelResponse `json:"model_response"`
	} `json:"tool_call_metadata"`
}

// modelResponse is the part of an OpenAI ChatCompletion that matters.
type modelResponse struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content   json.RawMessage `json:"content"`
			Reasoning string          `json:"reasoning_content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
	Usage *norm.ChatUsage `json:"usage"`
}

// args is the part of an action's arguments that becomes message text.
type args struct {
	Content string `json:"content"`
	Thought string `json:"thought"`
}

// v1Event is one event of the OpenHands software agent SDK (V1): its
// discriminator is kind, and its id a UUID. One struct holds the fields of
// every kind normalization reads.
type v1Event struct {
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Source    string `json:"source"`
	Kind      string `json:"kind"`

	// SystemPromptEvent
	SystemPrompt   *v1Text         `json:"system_prompt"`
	DynamicContext *v1Text         `json:"dynamic_context"`
	Tools          json.RawMessage `json:"tools"`

	// MessageEvent
	LLMMessage      *v1Message `json:"llm_message"`
	ExtendedContent []v1Text   `json:"extended_content"`

	// ActionEvent
	Thought          []v1Text        `json:"thought"`
	ReasoningContent string          `json:"reasoning_content"`
	ThinkingBlocks   []v1Thinking    `json:"thinking_blocks"`
	ReasoningItem    *v1Reasoning    `json:"responses_reasoning_item"`
	ToolName         string          `json:"tool_name"`
	ToolCallID       string          `json:"tool_call_id"`
	ToolCall         *v1ToolCall     `json:"tool_call"`
	LLMResponseID    string          `json:"llm_response_id"`
	Action           json.RawMessage `json:"action"`

	// ObservationEvent, UserRejectObservation, AgentErrorEvent
	Observation     *v1Observation `json:"observation"`
	RejectionReason string         `json:"rejection_reason"`
	Error           string         `json:"error"`

	// Condensation, CondensationSummaryEvent
	ForgottenEventIDs []string `json:"forgotten_event_ids"`
	Summary           string   `json:"summary"`

	// ConversationStateUpdateEvent
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
}

// v1Text is a TextContent.
type v1Text struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// v1Message is an LLM message of a MessageEvent.
type v1Message struct {
	Role             string       `json:"role"`
	Content          []v1Content  `json:"content"`
	ReasoningContent string       `json:"reasoning_content"`
	ThinkingBlocks   []v1Thinking `json:"thinking_blocks"`
}

// v1Content is a content part: text or an image.
type v1Content struct {
	Type      string   `json:"type"`
	Text      string   `json:"text"`
	ImageURLs []string `json:"image_urls"`
}

// v1Thinking is an Anthropic thinking or redacted_thinking block.
type v1Thinking struct {
	Type     string `json:"type"`
	Thinking string `json:"thinking"`
	Data     string `json:"data"`
}

// v1Reasoning is an OpenAI Responses reasoning item.
type v1Reasoning struct {
	Summary          []string `json:"summary"`
	Content          []string `json:"content"`
	EncryptedContent string   `json:"encrypted_content"`
}

// v1ToolCall is the tool call the model wrote: its arguments are a JSON
// string.
type v1ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// v1Observation is a tool's observation: its content is what the model
// reads back.
type v1Observation struct {
	Kind    string      `json:"kind"`
	Content []v1Content `json:"content"`
	IsError bool        `json:"is_error"`
}

// text joins the text parts of content.
func text(parts []v1Content) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Type != "" && p.Type != "text" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(p.Text)
	}
	return b.String()
}

// tokenUsage is one model response's usage as OpenHands metrics record it
// (evaluation output's metrics.token_usages, and V1's stats).
type tokenUsage struct {
	Prompt     int    `json:"prompt_tokens"`
	Completion int    `json:"completion_tokens"`
	CacheRead  int    `json:"cache_read_tokens"`
	CacheWrite int    `json:"cache_write_tokens"`
	Reasoning  int    `json:"reasoning_tokens"`
	Window     int    `json:"context_window"`
	ResponseID string `json:"response_id"`
}

// metrics is an evaluation line's metrics, as far as usage goes: the
// usage per response, and the cost of the whole run and of each call.
type metrics struct {
	TokenUsages     []tokenUsage `json:"token_usages"`
	AccumulatedCost float64      `json:"accumulated_cost"`
	Costs           []float64    `json:"costs"`
}
