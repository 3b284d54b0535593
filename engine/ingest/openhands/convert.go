package openhands

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/openai"
	"ctxscope/engine/session"
)

// builder turns one history's events, of either generation, into a
// session.
type builder struct {
	s    *session.Session
	t    *session.Thread
	file string
	// open is the assistant entry of the model response being read, and
	// openID that response's id.
	open   *session.Entry
	openID string
	// V1: accumulated is the usage stats reported last, and pending the
	// usage of the call whose response comes next; pendingKeep is a
	// condensation waiting for the first message it keeps.
	accumulated tokenUsage
	pending     *session.Usage
	pendingKeep *session.Compaction
	warnedHead  bool
	warnedUTF8  bool
	// V0 without function calling: legacy are the calls not yet answered;
	// spoke says a message was read, asked that the latest was an agent's
	// question; pos counts the events, which name those without an id.
	legacy []pendingCall
	spoke  bool
	asked  bool
	pos    int
}

func newBuilder(file, id string) *builder {
	t := &session.Thread{ID: "main", Kind: session.ThreadMain}
	s := &session.Session{ID: id, Format: session.FormatOpenHands, Agent: "openhands", Source: file, Threads: []*session.Thread{t}}
	return &builder{s: s, t: t, file: file}
}

// event converts one raw event of either generation: V1 events name their
// kind.
func (b *builder) event(raw json.RawMessage, line int) {
	b.pos++
	if !b.warnedUTF8 && !utf8.Valid(raw) {
		b.warnedUTF8 = true
		norm.Diag(b.s, b.file, line, session.SeverityWarning, "invalid UTF-8; the bad bytes read as U+FFFD (reported once per file)")
	}
	var probe struct {
		Kind string `json:"kind"`
	}
	if json.Unmarshal(raw, &probe) == nil && probe.Kind != "" {
		b.v1(raw, line)
		return
	}
	b.v0(raw, line)
}

// v0 converts one V0 event.
func (b *builder) v0(raw json.RawMessage, line int) {
	var ev event
	if err := json.Unmarshal(raw, &ev); err != nil {
		norm.Diag(b.s, b.file, line, session.SeverityError, "event: %s; skipped", norm.JSONError(err))
		return
	}
	ts := norm.Time(ev.Timestamp)
	switch {
	case ev.Action != "" && ev.ToolCall != nil:
		b.toolCall(&ev, line)
	case ev.Observation != "" && ev.ToolCall != nil:
		b.open = nil
		m := &session.Message{Role: session.RoleTool, Time: ts, Blocks: []session.Block{{
			Type: session.BlockToolResult, ToolCallID: ev.ToolCall.ToolCallID, ToolName: ev.ToolCall.FunctionName,
			Content: norm.Text(ev.Content), IsError: ev.Observation == "error",
		}}}
		b.add(&ev, line, m)
	case ev.Action == "system" || ev.Action == "message":
		b.open = nil
		m := messageAction(&ev, ts, b.messageRole(&ev))
		if ev.Action == "message" {
			b.spoke, b.asked = true, m.Role == session.RoleAssistant && ev.WaitForResponse
		}
		b.add(&ev, line, m)
	case legacyAction(&ev):
		b.legacyCall(&ev, raw, line)
	case ev.Observation != "" && ev.ToolCall == nil && b.legacyResult(&ev, line):
	case ev.Observation == "error":
		b.open = nil
		b.add(&ev, line, &session.Message{Role: session.RoleUser, Time: ts, Blocks: norm.Text(ev.Content)})
	default:
		e := b.add(&ev, line, nil)
		e.Value = ev.Action + ev.Observation
	}
}

// messageAction converts a system or message action of role: its args'
// content, else a flat event's own content, else its message.
func messageAction(ev *event, ts timeT, role session.Role) *session.Message {
	var a args
	_ = json.Unmarshal(ev.Args, &a) // missing args leave the event's content or message
	text := a.Content
	if text == "" && ev.Args == nil {
		text = ev.Content
	}
	if text == "" {
		text = ev.Message
	}
	return &session.Message{Role: role, Time: ts, Blocks: norm.Text(text)}
}

// toolCall adds an action's tool call to its model response's message.
func (b *builder) toolCall(ev *event, line int) {
	tc := ev.ToolCall
	resp := tc.ModelResponse
	call := session.Block{Type: session.BlockToolCall, ToolCallID: tc.ToolCallID, ToolName: tc.FunctionName}
	if resp != nil && len(resp.Choices) > 0 {
		for _, c := range resp.Choices[0].Message.ToolCalls {
			if c.ID == tc.ToolCallID {
				call.Arguments = openai.Arguments(c.Function.Arguments)
			}
		}
	}
	if call.Arguments == nil {
		call.Arguments = norm.NonNull(append(json.RawMessage(nil), ev.Args...))
	}
	if b.open != nil && resp != nil && resp.ID != "" && resp.ID == b.openID {
		b.open.Message.Blocks = append(b.open.Message.Blocks, call)
		return
	}
	m := &session.Message{Role: session.RoleAssistant, Time: norm.Time(ev.Timestamp)}
	if resp != nil {
		m.ID, m.Model = resp.ID, resp.Model
		if len(resp.Choices) > 0 {
			msg := resp.Choices[0].Message
			if msg.Reasoning != "" {
				m.Blocks = append(m.Blocks, session.Block{Type: session.BlockThinking, Text: msg.Reasoning})
			}
			for _, c := range openai.Content(msg.Content) {
				if c.Type != session.BlockText || strings.TrimSpace(c.Text) != "" {
					m.Blocks = append(m.Blocks, c)
				}
			}
		}
		if resp.Usage != nil {
			m.Usage = resp.Usage.Session()
		}
	}
	if resp == nil {
		// Without the model's response, the action's thought is its text.
		var a args
		if json.Unmarshal(ev.Args, &a) == nil && strings.TrimSpace(a.Thought) != "" {
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockText, Text: a.Thought})
		}
	}
	m.Blocks = append(m.Blocks, call)
	b.open = b.add(ev, line, m)
	b.openID = ""
	if resp != nil {
		b.openID = resp.ID
	}
}

// add appends an entry for a V0 event.
func (b *builder) add(ev *event, line int, m *session.Message) *session.Entry {
	return b.append(b.entryID(ev), line, norm.Time(ev.Timestamp), ev.Action+ev.Observation, m)
}

// entryID names a V0 event's entry: by its id, or by its position among
// the history's events where it has none (a flat resolver history).
func (b *builder) entryID(ev *event) string {
	if id := ev.ID.String(); id != "" {
		return "e" + id
	}
	return "p" + strconv.Itoa(b.pos)
}

// append adds an entry chained to the previous one; a nil message makes a
// metadata entry.
func (b *builder) append(id string, line int, ts timeT, typ string, m *session.Message) *session.Entry {
	e := &session.Entry{ID: id, Line: line, Time: ts, Kind: session.EntryMessage, Type: typ, Message: m}
	if m == nil {
		e.Kind = session.EntryMeta
	}
	if k := len(b.t.Entries); k > 0 {
		e.ParentID = b.t.Entries[k-1].ID
	}
	b.t.Entries = append(b.t.Entries, e)
	return e
}

// applyMetrics gives each model response the usage an evaluation's
// metrics recorded for its response id, where the events gave none, and
// keeps the run's recorded cost.
func (b *builder) applyMetrics(m *metrics) {
	if m != nil && m.AccumulatedCost > 0 && b.s.Recorded == nil {
		// The run's cost, and with the cost of each call how many calls it
		// made: a 2024 resolver's metrics hold no token counts.
		b.s.Recorded = &session.Recorded{Usage: session.Usage{Cost: m.AccumulatedCost}, Calls: len(m.Costs), From: "metrics.accumulated_cost"}
	}
	if m == nil || len(m.TokenUsages) == 0 {
		return
	}
	byID := map[string]tokenUsage{}
	for _, u := range m.TokenUsages {
		if u.ResponseID != "" {
			byID[u.ResponseID] = u
		}
	}
	for _, e := range b.t.Entries {
		msg := e.Message
		if msg == nil || msg.Role != session.RoleAssistant || msg.Usage != nil {
			continue
		}
		if u, ok := byID[msg.ID]; ok {
			msg.Usage = usageOf(u)
		}
	}
}
