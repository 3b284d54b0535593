package otlp

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The GenAI semantic conventions' attribute names this package reads.
const (
	attrOperation          = "gen_ai.operation.name"
	attrConversation       = "gen_ai.conversation.id"
	attrProvider           = "gen_ai.provider.name"
	attrSystem             = "gen_ai.system" // before gen_ai.provider.name
	attrRequestModel       = "gen_ai.request.model"
	attrResponseModel      = "gen_ai.response.model"
	attrResponseID         = "gen_ai.response.id"
	attrFinishReasons      = "gen_ai.response.finish_reasons"
	attrInputTokens        = "gen_ai.usage.input_tokens"
	attrOutputTokens       = "gen_ai.usage.output_tokens"
	attrPromptTokens       = "gen_ai.usage.prompt_tokens"     // before input_tokens
	attrCompletionTokens   = "gen_ai.usage.completion_tokens" // before output_tokens
	attrCacheRead          = "gen_ai.usage.cache_read.input_tokens"
	attrCacheWrite         = "gen_ai.usage.cache_creation.input_tokens"
	attrReasoning          = "gen_ai.usage.reasoning.output_tokens"
	attrInputMessages      = "gen_ai.input.messages"
	attrOutputMessages     = "gen_ai.output.messages"
	attrSystemInstructions = "gen_ai.system_instructions"
	attrToolDefinitions    = "gen_ai.tool.definitions"
	attrAgentName          = "gen_ai.agent.name"
	attrToolName           = "gen_ai.tool.name"
	attrToolCallID         = "gen_ai.tool.call.id"
	attrToolArguments      = "gen_ai.tool.call.arguments"
	attrToolResult         = "gen_ai.tool.call.result"
	attrErrorType          = "error.type"
	attrSessionID          = "session.id"
	// attrSpooled is the conversation ctxscope's receiver filed a span
	// under when the span named none itself (see Split).
	attrSpooled = "ctxscope.conversation.id"
)

// attrString returns attribute key as a string: a string as it is, any
// other value in its JSON form, "" when absent.
func attrString(attrs map[string]any, key string) string {
	v, ok := attrs[key]
	if !ok || v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// attrInt returns attribute key as an integer (instrumentations write
// token counts as ints, doubles or strings), and whether it held one.
func attrInt(attrs map[string]any, key string) (int, bool) {
	switch v := attrs[key].(type) {
	case int64:
		return int(v), true
	case float64:
		return int(v), true
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(v))
		return n, err == nil
	}
	return 0, false
}

// attrJSON returns attribute key as JSON: structured values encoded, a
// string that holds JSON as that JSON, nil when absent.
func attrJSON(attrs map[string]any, key string) json.RawMessage {
	v, ok := attrs[key]
	if !ok || v == nil {
		return nil
	}
	return valueJSON(v)
}

// valueJSON returns v as JSON: a string holding a JSON array or object as
// that JSON, any other string as a JSON string, anything else encoded.
func valueJSON(v any) json.RawMessage {
	if s, ok := v.(string); ok {
		t := strings.TrimSpace(s)
		if len(t) > 0 && (t[0] == '[' || t[0] == '{') && json.Valid([]byte(t)) {
			return json.RawMessage(t)
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// firstString returns the first element of a string or list attribute
// (gen_ai.response.finish_reasons is a list).
func firstString(attrs map[string]any, key string) string {
	switch v := attrs[key].(type) {
	case string:
		return v
	case []any:
		if len(v) > 0 {
			if s, ok := v[0].(string); ok {
				return s
			}
		}
	}
	return ""
}

// isGenAIEvent reports whether an event or log record name is one the
// conversion reads.
func isGenAIEvent(name string) bool {
	switch name {
	case evSystem, evUser, evAssistant, evTool, evChoice, evDetails:
		return true
	}
	return false
}

// Event names: the message events of semantic conventions before 1.37,
// and the event that carries 1.37's message attributes.
const (
	evSystem    = "gen_ai.system.message"
	evUser      = "gen_ai.user.message"
	evAssistant = "gen_ai.assistant.message"
	evTool      = "gen_ai.tool.message"
	evChoice    = "gen_ai.choice"
	evDetails   = "gen_ai.client.inference.operation.details"
)
