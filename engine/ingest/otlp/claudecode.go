package otlp

import (
	"fmt"
	"strings"
	"time"

	"ctxscope/engine/session"
)

// Claude Code's telemetry (CLAUDE_CODE_ENABLE_TELEMETRY=1 with an OTLP
// logs exporter) is log events whose body is their name
// (claude_code.user_prompt, …), in no span, naming the conversation by
// session.id: the user's prompt (with OTEL_LOG_USER_PROMPTS=1), each API
// request's usage, the model's text answers, and each tool run with its
// input (with OTEL_LOG_TOOL_DETAILS=1) and the size of its result, not
// the result itself. It holds no system prompt, no tool schema, no
// injected context and no thinking.
const (
	evClaudePrompt   = "claude_code.user_prompt"
	evClaudeRequest  = "claude_code.api_request"
	evClaudeResponse = "claude_code.assistant_response"
	evClaudeDecision = "claude_code.tool_decision"
	evClaudeTool     = "claude_code.tool_result"
)

// isClaudeCodeEvent reports whether a log record's body names one of the
// Claude Code events a session is made of.
func isClaudeCodeEvent(body any) bool {
	name, _ := body.(string)
	switch name {
	case evClaudePrompt, evClaudeRequest, evClaudeResponse, evClaudeDecision, evClaudeTool:
		return true
	}
	return false
}

// claudeCodeLacks is what a session read from Claude Code's telemetry says
// it lacks.
const claudeCodeLacks = "Claude Code's telemetry records the user's prompts, each API request's usage, the model's text answers, " +
	"and each tool call's input with the size of its result: not the results themselves, the system prompt, the tool schemas, " +
	"the context it injects, or thinking, which the model received too (each request's usage gives the size of its whole input)"

// buildClaudeCodeSession places Claude Code's events of one conversation
// on a's thread: a prompt is a user turn; an API request an answer with
// its usage, its text and its calls; each call's result follows it, as
// the size the tool returned (what the model received is larger: Claude
// Code numbers a file's lines, and adds reminders), with the input the
// run recorded as the call's arguments (with the tool's defaults filled
// in).
func buildClaudeCodeSession(a *agentSession, evs []event) {
	owner, calls := claudeCalls(evs)
	var answer *session.Message  // the latest request's answer
	waiting := map[int][]event{} // results of a request whose event is still to come
	result := func(e event) {
		id, name := attrString(e.attrs, "tool_use_id"), attrString(e.attrs, "tool_name")
		size, _ := attrInt(e.attrs, "tool_result_size_bytes")
		a.add(&session.Message{Role: session.RoleTool, Blocks: []session.Block{{Type: session.BlockToolResult, ToolCallID: id, ToolName: name,
			IsError: strings.EqualFold(attrString(e.attrs, "success"), "false"),
			Content: []session.Block{{Type: session.BlockText, Text: fmt.Sprintf("[not in Claude Code's telemetry: the tool returned %d bytes]", size)}}}}}, e)
	}
	for k, e := range evs {
		e.time = eventTime(e)
		switch e.name {
		case evClaudePrompt:
			answer = nil
			a.add(&session.Message{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: attrString(e.attrs, "prompt")}}}, e)
		case evClaudeRequest:
			u := &session.Usage{}
			u.Input, _ = attrInt(e.attrs, "input_tokens")
			u.Output, _ = attrInt(e.attrs, "output_tokens")
			u.CacheRead, _ = attrInt(e.attrs, "cache_read_tokens")
			u.CacheWrite, _ = attrInt(e.attrs, "cache_creation_tokens")
			answer = &session.Message{Role: session.RoleAssistant, Blocks: append([]session.Block{}, calls[k]...), Model: attrString(e.attrs, "model"), Usage: u}
			a.add(answer, e)
			for _, r := range waiting[k] {
				result(r)
			}
			delete(waiting, k)
		case evClaudeResponse:
			if answer != nil { // the text comes before the calls
				answer.Blocks = append([]session.Block{{Type: session.BlockText, Text: attrString(e.attrs, "response")}}, answer.Blocks...)
			}
		case evClaudeTool:
			k2, ok := owner[attrString(e.attrs, "tool_use_id")]
			switch {
			case !ok:
				// A run no decision placed: a call of its own answer.
				m := &session.Message{Role: session.RoleAssistant, Blocks: []session.Block{claudeCall(e)}}
				a.add(m, e)
				result(e)
			case k2 > k:
				waiting[k2] = append(waiting[k2], e) // its request's event, and so its call, is still to come
			default:
				result(e)
			}
		}
	}
	a.lacks(claudeCodeLacks)
}

// claudeCalls places each call Claude Code decided on: it belongs to the
// request that had started when it was decided, the latest such (start:
// the request event's time less its duration). Claude Code logs a request
// once its answer has streamed, and runs a tool as soon as its call has
// streamed, so a decision may come before or after its request's event;
// but an earlier request's calls were all decided and run before the next
// request started. It returns each call's request, by the index of the
// request's event, and each request's call blocks, in the order they were
// decided, with the input the run recorded (else the decision's
// parameters).
func claudeCalls(evs []event) (map[string]int, map[int][]session.Block) {
	type req struct {
		k     int
		start time.Time
	}
	var reqs []req
	inputs := map[string]string{}
	for k, e := range evs {
		switch e.name {
		case evClaudeRequest:
			d, _ := attrInt(e.attrs, "duration_ms")
			reqs = append(reqs, req{k, eventTime(e).Add(-time.Duration(d) * time.Millisecond)})
		case evClaudeTool:
			inputs[attrString(e.attrs, "tool_use_id")] = attrString(e.attrs, "tool_input")
		}
	}
	owner := map[string]int{}
	calls := map[int][]session.Block{}
	for _, e := range evs {
		if e.name != evClaudeDecision {
			continue
		}
		t, k := eventTime(e), -1
		for _, r := range reqs {
			if !r.start.After(t) {
				k = r.k // reqs are in order: the latest that had started
			}
		}
		if k < 0 {
			continue
		}
		id := attrString(e.attrs, "tool_use_id")
		args := inputs[id]
		if args == "" {
			args = attrString(e.attrs, "tool_parameters")
		}
		owner[id] = k
		calls[k] = append(calls[k], session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: attrString(e.attrs, "tool_name"), Arguments: toolArguments(args)})
	}
	return owner, calls
}

// claudeCall is the call block of a run no decision placed.
func claudeCall(run event) session.Block {
	return session.Block{Type: session.BlockToolCall, ToolCallID: attrString(run.attrs, "tool_use_id"), ToolName: attrString(run.attrs, "tool_name"),
		Arguments: toolArguments(attrString(run.attrs, "tool_input"))}
}
