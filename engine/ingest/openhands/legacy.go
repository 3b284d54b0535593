package openhands

import (
	"encoding/json"
	"strings"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// Before function calling (OpenHands in 2024, CodeAct), the model wrote
// its actions as text (<execute_bash>, <execute_ipython>, <finish>) and
// the events carry no tool_call_metadata. The resolver of that time wrote
// its history flat: each action's arguments and each observation's extras
// at the top level of the event, and no source, id or timestamp. An
// action the model wrote becomes an assistant message: its thought, and a
// call of a tool named after the action with the action's arguments; the
// observation that follows it becomes the call's result.

// modelActions are the V0 actions a model writes (the others, such as
// change_agent_state or recall, come from the agent's machinery).
var modelActions = map[string]bool{
	"run": true, "run_ipython": true, "read": true, "write": true, "edit": true, "browse": true,
	"browse_interactive": true, "delegate": true, "finish": true, "think": true, "reject": true,
}

// bookkeeping are the fields of a flat action that are not its arguments.
var bookkeeping = map[string]bool{
	"id": true, "timestamp": true, "source": true, "message": true, "action": true, "thought": true,
	"is_confirmed": true, "confirmation_state": true, "security_risk": true, "keep_prompt": true,
	"kernel_init_code": true, "images_urls": true, "image_urls": true, "wait_for_response": true,
	"blocking": true, "hidden": true, "cause": true, "timeout": true, "llm_metrics": true,
}

// legacyAction reports whether ev is an action the model wrote as text.
func legacyAction(ev *event) bool {
	return ev.ToolCall == nil && modelActions[ev.Action] && (ev.Source == "" || ev.Source == "agent")
}

// legacyCall converts an action the model wrote as text.
func (b *builder) legacyCall(ev *event, raw json.RawMessage, line int) {
	b.open = nil
	var a args
	_ = json.Unmarshal(ev.Args, &a) // flat events have none
	thought := a.Thought
	if ev.Args == nil {
		thought = ev.Thought
	}
	id := "oh-" + b.entryID(ev)
	m := &session.Message{Role: session.RoleAssistant, Time: norm.Time(ev.Timestamp)}
	if strings.TrimSpace(thought) != "" {
		m.Blocks = append(m.Blocks, session.Block{Type: session.BlockText, Text: thought})
	}
	m.Blocks = append(m.Blocks, session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: ev.Action, Arguments: legacyArguments(ev, raw)})
	b.add(ev, line, m)
	b.legacy = append(b.legacy, pendingCall{id: id, name: ev.Action, event: ev.ID.String()})
}

// legacyArguments are an action's arguments: its args, or in a flat event
// its fields beyond the bookkeeping.
func legacyArguments(ev *event, raw json.RawMessage) json.RawMessage {
	if ev.Args != nil {
		return norm.NonNull(append(json.RawMessage(nil), ev.Args...))
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return json.RawMessage("{}")
	}
	for k := range fields {
		if bookkeeping[k] {
			delete(fields, k)
		}
	}
	out, err := json.Marshal(fields) // keys sorted: the object's own order is not kept
	if err != nil {
		return json.RawMessage("{}")
	}
	return out
}

// pendingCall is a legacy call not yet answered.
type pendingCall struct {
	id, name string
	event    string // the action's event id, which an observation's cause names
}

// legacyResult converts an observation of a legacy call: the call its
// cause names, else (without a cause) the oldest unanswered if the
// observation is of its kind (run answers run) or an error. It reports
// false when no call waits for it.
func (b *builder) legacyResult(ev *event, line int) bool {
	cause := strings.Trim(string(ev.Cause), `"`)
	at := -1
	for i, c := range b.legacy {
		if cause != "" && c.event != "" && c.event == cause {
			at = i
			break
		}
	}
	if at < 0 && len(b.legacy) > 0 && (cause == "" || cause == "null") &&
		(ev.Observation == b.legacy[0].name || ev.Observation == "error") {
		at = 0
	}
	if at < 0 {
		return false
	}
	c := b.legacy[at]
	b.legacy = append(b.legacy[:at], b.legacy[at+1:]...)
	b.open = nil
	failed := ev.Observation == "error" || ev.ExitCode != nil && *ev.ExitCode != 0
	if ev.Extras != nil && ev.Extras.ExitCode != nil && *ev.Extras.ExitCode != 0 {
		failed = true
	}
	b.add(ev, line, &session.Message{Role: session.RoleTool, Time: norm.Time(ev.Timestamp), Blocks: []session.Block{{
		Type: session.BlockToolResult, ToolCallID: c.id, ToolName: c.name, Content: norm.Text(ev.Content), IsError: failed,
	}}})
	return true
}

// messageRole is the role of a message action. Without a source (a flat
// resolver history), the first message is the user's task, and a message
// that follows an agent's question (wait_for_response) is the user's
// answer; any other is the agent's.
func (b *builder) messageRole(ev *event) session.Role {
	switch {
	case ev.Action == "system":
		return session.RoleSystem
	case ev.Source == "user":
		return session.RoleUser
	case ev.Source != "":
		return session.RoleAssistant
	case !b.spoke || b.asked:
		return session.RoleUser
	}
	return session.RoleAssistant
}
