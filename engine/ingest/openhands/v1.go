package openhands

import (
	"encoding/json"
	"strings"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/openai"
	"ctxscope/engine/session"
)

// v1 converts one event of the software agent SDK (OpenHands V1).
//
//   - SystemPromptEvent becomes a system message: the prompt, the dynamic
//     context, and the tool definitions as JSON, all of which the model
//     is sent.
//   - MessageEvent becomes a user or assistant message; its extended
//     content (skills, reminders) is sent with it.
//   - ActionEvents that share an llm_response_id are one model response:
//     one assistant message with its reasoning (thinking; encrypted
//     reasoning as opaque blocks), its thought as text, and a tool call
//     per action.
//   - ObservationEvent, UserRejectObservation and AgentErrorEvent answer a
//     tool call: tool messages.
//   - Condensation forgets events: a compaction whose summary replaces
//     the history before the first event it kept; a
//     CondensationSummaryEvent is the summary the model then reads.
//   - ConversationStateUpdateEvent "stats" carries the usage accumulated
//     so far: the growth since the previous one is the usage of one model
//     call. The SDK records it as the call returns, just before the
//     response's events (in the SDK's own recorded run, a millisecond
//     before its action), so it goes to the next response; growth that no
//     response follows before the next update belonged to a call whose
//     response is not in the log, and is dropped.
//   - Every other kind is kept as metadata.
func (b *builder) v1(raw json.RawMessage, line int) {
	var ev v1Event
	if err := json.Unmarshal(raw, &ev); err != nil {
		norm.Diag(b.s, b.file, line, session.SeverityError, "event: %s; skipped", norm.JSONError(err))
		return
	}
	if b.s.Version == 0 {
		b.s.Version = 1
		b.s.Agent = "openhands-sdk"
	}
	ts := norm.Time(ev.Timestamp)
	switch ev.Kind {
	case "SystemPromptEvent":
		b.open = nil
		b.addV1(&ev, line, &session.Message{Role: session.RoleSystem, Time: ts, Blocks: systemBlocks(&ev)})
	case "MessageEvent":
		b.open = nil
		m := messageEvent(&ev)
		if m.Role == session.RoleAssistant {
			m.Usage, b.pending = b.pending, nil
		}
		b.addV1(&ev, line, m)
	case "ActionEvent":
		b.action(&ev, line)
	case "ObservationEvent", "UserRejectObservation", "AgentErrorEvent":
		b.open = nil
		b.addV1(&ev, line, observation(&ev))
	case "Condensation":
		b.open = nil
		c := &session.Compaction{Summary: ev.Summary}
		c.FirstKeptID = b.keptAfter(set(ev.ForgottenEventIDs))
		e := b.addV1(&ev, line, nil)
		e.Kind, e.Compaction = session.EntryCompaction, c
		if c.FirstKeptID == "" {
			b.pendingKeep = c // everything before was forgotten: the next message is kept
		}
	case "CondensationSummaryEvent":
		b.open = nil
		b.addV1(&ev, line, &session.Message{Role: session.RoleUser, Origin: session.OriginCompactionSummary, Time: ts, Blocks: norm.Text(ev.Summary)})
	case "ConversationStateUpdateEvent":
		e := b.addV1(&ev, line, nil)
		e.Value = ev.Key
		if ev.Key == "stats" {
			b.stats(ev.Value)
		} else {
			e.Raw = append(json.RawMessage(nil), raw...)
		}
	default:
		e := b.addV1(&ev, line, nil)
		e.Value = ev.Kind
		e.Raw = append(json.RawMessage(nil), raw...)
	}
}

// systemBlocks returns the system prompt, its dynamic context and the tool
// definitions as text blocks.
func systemBlocks(ev *v1Event) []session.Block {
	var out []session.Block
	for _, t := range []*v1Text{ev.SystemPrompt, ev.DynamicContext} {
		if t != nil && t.Text != "" {
			out = append(out, session.Block{Type: session.BlockText, Text: t.Text})
		}
	}
	if tools := strings.TrimSpace(string(ev.Tools)); tools != "" && tools != "null" && tools != "[]" {
		out = append(out, session.Block{Type: session.BlockText, Text: tools})
	}
	return out
}

// messageEvent converts a MessageEvent's LLM message.
func messageEvent(ev *v1Event) *session.Message {
	m := &session.Message{Role: session.RoleUser, Time: norm.Time(ev.Timestamp)}
	lm := ev.LLMMessage
	if lm == nil {
		return m
	}
	switch lm.Role {
	case "assistant":
		m.Role = session.RoleAssistant
		m.Blocks = append(m.Blocks, reasoningBlocks(lm.ReasoningContent, lm.ThinkingBlocks, nil)...)
	case "system":
		m.Role = session.RoleSystem
	}
	m.Blocks = append(m.Blocks, contentBlocks(lm.Content)...)
	for _, x := range ev.ExtendedContent {
		if x.Text != "" {
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockText, Text: x.Text})
		}
	}
	return m
}

// contentBlocks converts text and image parts.
func contentBlocks(parts []v1Content) []session.Block {
	var out []session.Block
	for _, p := range parts {
		switch {
		case p.Type == "image":
			for range p.ImageURLs {
				out = append(out, session.Block{Type: session.BlockImage})
			}
		case p.Text != "":
			out = append(out, session.Block{Type: session.BlockText, Text: p.Text})
		}
	}
	return out
}

// reasoningBlocks returns a response's reasoning: readable thinking as
// thinking blocks, encrypted reasoning as opaque blocks. reasoning_content
// repeats the thinking blocks' text when both are present, and is used
// only when they are not.
func reasoningBlocks(content string, thinking []v1Thinking, item *v1Reasoning) []session.Block {
	var out []session.Block
	for _, t := range thinking {
		switch {
		case t.Type == "redacted_thinking":
			out = append(out, session.Block{Type: session.BlockOpaque, Size: len(t.Data)})
		case t.Thinking != "":
			out = append(out, session.Block{Type: session.BlockThinking, Text: t.Thinking})
		}
	}
	if len(out) == 0 && strings.TrimSpace(content) != "" {
		out = append(out, session.Block{Type: session.BlockThinking, Text: content})
	}
	if item != nil {
		if summary := strings.Join(append(append([]string(nil), item.Summary...), item.Content...), "\n\n"); summary != "" && len(out) == 0 {
			out = append(out, session.Block{Type: session.BlockThinking, Text: summary})
		}
		if item.EncryptedContent != "" {
			out = append(out, session.Block{Type: session.BlockOpaque, Size: len(item.EncryptedContent)})
		}
	}
	return out
}

// action adds an ActionEvent's tool call to the message of its model
// response, opening one for a response's first action.
func (b *builder) action(ev *v1Event, line int) {
	call := session.Block{Type: session.BlockToolCall, ToolCallID: ev.ToolCallID, ToolName: ev.ToolName}
	if tc := ev.ToolCall; tc != nil {
		call.Arguments = openai.Arguments(json.RawMessage(jsonString(tc.Arguments)))
		if call.ToolName == "" {
			call.ToolName = tc.Name
		}
	}
	if call.Arguments == nil {
		call.Arguments = norm.NonNull(append(json.RawMessage(nil), ev.Action...))
	}
	if b.open != nil && ev.LLMResponseID != "" && ev.LLMResponseID == b.openID {
		b.open.Message.Blocks = append(b.open.Message.Blocks, call)
		return
	}
	m := &session.Message{Role: session.RoleAssistant, ID: ev.LLMResponseID, Time: norm.Time(ev.Timestamp)}
	m.Blocks = append(m.Blocks, reasoningBlocks(ev.ReasoningContent, ev.ThinkingBlocks, ev.ReasoningItem)...)
	for _, t := range ev.Thought {
		if strings.TrimSpace(t.Text) != "" {
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockText, Text: t.Text})
		}
	}
	m.Blocks = append(m.Blocks, call)
	m.Usage, b.pending = b.pending, nil
	b.open, b.openID = b.addV1(ev, line, m), ev.LLMResponseID
}

// jsonString returns s as a JSON string literal, which
// openai.Arguments reads as arguments written as a string.
func jsonString(s string) []byte {
	out, _ := json.Marshal(s)
	return out
}

// observation converts a tool's answer.
func observation(ev *v1Event) *session.Message {
	res := session.Block{Type: session.BlockToolResult, ToolCallID: ev.ToolCallID, ToolName: ev.ToolName}
	switch ev.Kind {
	case "ObservationEvent":
		if o := ev.Observation; o != nil {
			res.Content, res.IsError = contentBlocks(o.Content), o.IsError
		}
	case "UserRejectObservation":
		res.Content, res.IsError = norm.Text("Action rejected: "+ev.RejectionReason), true
	case "AgentErrorEvent":
		res.Content, res.IsError = norm.Text(ev.Error), true
	}
	return &session.Message{Role: session.RoleTool, Time: norm.Time(ev.Timestamp), Blocks: []session.Block{res}}
}

// stats reads a stats update: the usage accumulated by the agent's LLM
// grew by the usage of the call whose response comes next.
func (b *builder) stats(raw json.RawMessage) {
	var v struct {
		UsageToMetrics map[string]struct {
			Accumulated *tokenUsage `json:"accumulated_token_usage"`
			Cost        float64     `json:"accumulated_cost"`
		} `json:"usage_to_metrics"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	// The session's totals are those of every LLM the agent used: the
	// agent's own ("default") and its condenser's.
	rec := &session.Recorded{From: "stats.usage_to_metrics.*.accumulated_token_usage"}
	for _, m := range v.UsageToMetrics {
		if m.Accumulated != nil {
			rec.Usage.Add(*usageOf(*m.Accumulated))
		}
		rec.Usage.Cost += m.Cost
	}
	b.s.Recorded = rec
	acc := v.UsageToMetrics["default"].Accumulated
	if acc == nil {
		return
	}
	prev := b.accumulated
	b.accumulated = *acc
	grew := tokenUsage{Prompt: acc.Prompt - prev.Prompt, Completion: acc.Completion - prev.Completion, CacheRead: acc.CacheRead - prev.CacheRead,
		CacheWrite: acc.CacheWrite - prev.CacheWrite, Reasoning: acc.Reasoning - prev.Reasoning, Window: acc.Window}
	b.pending = nil
	if grew.Prompt > 0 {
		b.pending = usageOf(grew)
	}
}

// usageOf normalizes OpenHands' usage: its prompt tokens include the
// cache's.
func usageOf(u tokenUsage) *session.Usage {
	return &session.Usage{Input: u.Prompt - u.CacheRead - u.CacheWrite, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite,
		Output: u.Completion, Reasoning: u.Reasoning, ContextWindow: u.Window}
}

// keptAfter returns the first message entry after the last one a
// condensation forgot: where the verbatim context resumes. A condenser
// also keeps a head (the system prompt and the first user message), which
// a compaction with one kept point cannot say; the reconstruction leaves
// the head out and says so in the session's diagnostics once.
func (b *builder) keptAfter(forgotten map[string]bool) string {
	entries := b.t.Entries
	first, last := -1, -1
	for i, e := range entries {
		if forgotten[strings.TrimPrefix(e.ID, "e")] {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if last < 0 {
		return ""
	}
	for _, e := range entries[:first] {
		if e.Message != nil && !b.warnedHead {
			b.warnedHead = true
			norm.Diag(b.s, b.file, entries[first].Line, session.SeverityWarning,
				"a condensation kept the events before the ones it forgot; after it, the reconstructed context starts at its summary and leaves them out")
		}
	}
	for _, e := range entries[last+1:] {
		if e.Message != nil {
			return e.ID
		}
	}
	return ""
}

// addV1 appends an entry for a V1 event, chained to the previous one; a
// nil message makes a metadata entry. A condensation that forgot every
// event before it keeps the next message.
func (b *builder) addV1(ev *v1Event, line int, m *session.Message) *session.Entry {
	e := b.append("e"+ev.ID, line, norm.Time(ev.Timestamp), ev.Kind, m)
	if c := b.pendingKeep; c != nil && m != nil {
		c.FirstKeptID, b.pendingKeep = e.ID, nil
	}
	return e
}

func set(ids []string) map[string]bool {
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}
