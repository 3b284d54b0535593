package otlp

import (
	"encoding/json"
	"strings"

	"ctxscope/engine/session"
)

// Codex's telemetry ([otel] in its config.toml) is log events named
// codex.*, each naming the conversation by attrCodexConversation, most of
// them in no span: the user's prompt (with log_user_prompt), each tool
// run with its arguments and output, and each response's usage (a
// codex.sse_event of kind response.completed). It holds no system or
// developer message, no tool schema, and none of the model's text or
// reasoning; a session read from it says so.
const (
	attrCodexConversation = "conversation.id"

	evCodexPrompt   = "codex.user_prompt"
	evCodexSSE      = "codex.sse_event"
	evCodexDecision = "codex.tool_decision"
	evCodexTool     = "codex.tool_result"
)

// codexLacks is what a session read from Codex's telemetry says it lacks.
const codexLacks = "Codex's telemetry records the user's prompts, each tool call with its result, and each response's usage: " +
	"not the system and developer messages, the tool schemas, or the model's text and reasoning, which the model received too " +
	"(each response's usage gives the size of the whole input); calls the model made together are in the order Codex dispatched them, " +
	"which may not be the model's"

// buildCodexSession places the Codex events of one conversation, in the
// order they happened, on a's thread: a prompt is a user turn; a
// completed response (the one of its two events that has the usage) an
// answer with its usage; the calls Codex then decided on are its calls,
// in the order decided (Codex decides the calls of one response as it
// dispatches them, at once: usually the model's order, not always), each
// with the arguments its run recorded and its result after it, in the
// order the runs ended.
func buildCodexSession(a *agentSession, evs []event) {
	var answer *session.Message // the latest response, which the calls after it belong to
	placed := map[string]*session.Message{}
	current := func(e event) *session.Message {
		if answer == nil { // a run no recorded response asked for
			answer = &session.Message{Role: session.RoleAssistant, Blocks: []session.Block{}}
			a.add(answer, e)
		}
		return answer
	}
	for _, e := range evs {
		switch e.name {
		case evCodexPrompt:
			answer = nil
			a.add(&session.Message{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: attrString(e.attrs, "prompt")}}}, e)
		case evCodexSSE:
			u := codexUsage(e.attrs)
			if attrString(e.attrs, "event.kind") != "response.completed" || u == nil {
				continue // Codex logs each completion twice, once with its usage
			}
			answer = &session.Message{Role: session.RoleAssistant, Blocks: []session.Block{}, Model: attrString(e.attrs, "model"), Usage: u}
			a.add(answer, e)
		case evCodexDecision:
			id := attrString(e.attrs, "call_id")
			if placed[id] == nil {
				m := current(e)
				m.Blocks = append(m.Blocks, session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: attrString(e.attrs, "tool_name"), Arguments: json.RawMessage("{}")})
				placed[id] = m
			}
		case evCodexTool:
			id, name := attrString(e.attrs, "call_id"), attrString(e.attrs, "tool_name")
			args := toolArguments(attrString(e.attrs, "arguments"))
			if m := placed[id]; m != nil {
				for i := range m.Blocks {
					if m.Blocks[i].ToolCallID == id {
						m.Blocks[i].Arguments = args
					}
				}
			} else {
				m := current(e)
				m.Blocks = append(m.Blocks, session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: name, Arguments: args})
				placed[id] = m
			}
			a.add(&session.Message{Role: session.RoleTool, Blocks: []session.Block{{Type: session.BlockToolResult, ToolCallID: id, ToolName: name,
				IsError: attrString(e.attrs, "success") == "false", Content: []session.Block{{Type: session.BlockText, Text: attrString(e.attrs, "output")}}}}}, e)
		}
	}
	a.lacks(codexLacks)
}

// codexUsage reads a completed response's token counts: the input counts
// the cached tokens too.
func codexUsage(attrs map[string]any) *session.Usage {
	in, ok := attrInt(attrs, "input_token_count")
	if !ok {
		return nil
	}
	u := &session.Usage{}
	u.Output, _ = attrInt(attrs, "output_token_count")
	u.CacheRead, _ = attrInt(attrs, "cached_token_count")
	u.CacheWrite, _ = attrInt(attrs, "cache_write_token_count")
	u.Reasoning, _ = attrInt(attrs, "reasoning_token_count")
	u.Input = max(0, in-u.CacheRead-u.CacheWrite)
	return u
}

// toolArguments is a tool run's arguments as an agent's telemetry
// records them, as JSON: an object as it is, a freeform tool's text
// (Codex's apply_patch patch) as a JSON string.
func toolArguments(s string) json.RawMessage {
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	b, _ := json.Marshal(s)
	return b
}
