// Package copilot imports GitHub Copilot CLI sessions: the event log it
// writes as JSON Lines under ~/.copilot/session-state/, one file per
// session (<id>.jsonl, or <id>/events.jsonl in newer versions). Every line
// is an event {type, data, id, timestamp, parentId}.
//
// Normalization:
//   - system.message is the system prompt; user.message a user turn (the
//     transformedContent the model was sent, when recorded, else the
//     content); skill context that Copilot injects as a user message is
//     user text of origin "skill".
//   - assistant.message is one model response: its reasoning text as
//     thinking, its opaque reasoning and encrypted content as opaque
//     blocks, its text, and its toolRequests as tool calls. Its usage is
//     the session.usage_record of the same apiCallId (1.0.10x; usage.go);
//     older versions record the output tokens only.
//   - tool.execution_complete answers a tool call: a tool message, an
//     error when it did not succeed.
//   - session.truncation, Copilot dropping history to fit the context, is
//     a compaction with no summary.
//   - session.usage_record is one model call's usage (usage.go), given
//     to the response of the same call.
//   - session.shutdown holds a process's usage by model and the size of
//     the context it last measured: the session's recorded totals, summed
//     over the shutdowns of a resumed session.
//   - Events of a subagent (1.0.10x's task tool) carry its agentId: they
//     are a thread of their own, a subagent of the main thread, titled
//     from its subagent.started (the agent's name and description).
//   - Every other event is kept as metadata.
package copilot

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/session"
)

// Importer reads Copilot CLI event logs. The zero value is ready to use.
type Importer struct{}

// Format returns [session.FormatCopilot].
func (Importer) Format() session.Format { return session.FormatCopilot }

// Sniff reports whether head starts a Copilot CLI event log: JSON Lines
// whose first records are events with a dotted type and a data object.
func (Importer) Sniff(head []byte) bool {
	for _, raw := range jsonl.FirstValues(head, 3) {
		var ev struct {
			Type string          `json:"type"`
			Data json.RawMessage `json:"data"`
			ID   *string         `json:"id"`
		}
		if json.Unmarshal(raw, &ev) != nil || ev.Data == nil || ev.ID == nil {
			return false
		}
		if knownTypes[ev.Type] {
			return true
		}
	}
	return false
}

// knownTypes are event types that only Copilot CLI writes.
var knownTypes = map[string]bool{
	"session.start": true, "session.resume": true, "session.model_change": true, "user.message": true,
	"assistant.message": true, "assistant.turn_start": true, "tool.execution_start": true, "tool.execution_complete": true,
	"system.message": true, "session.info": true,
}

// Import reads one event log. Malformed lines become diagnostics and are
// skipped; only a read failure is returned as an error.
func (Importer) Import(r io.Reader, name string) (*session.Session, error) {
	return jsonl.Decode(r, name, newDecoder(name), 0)
}

// NewDecoder returns an incremental decoder of one event log, for a live
// tail; name is used in diagnostics.
func (Importer) NewDecoder(name string) jsonl.Decoder { return newDecoder(name) }

// event is one line of the log.
type event struct {
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	// AgentID names the subagent whose event it is; "" for the main
	// agent's.
	AgentID string `json:"agentId"`
}

// data holds the fields of every event type normalization reads.
type data struct {
	SessionID      string `json:"sessionId"`
	CopilotVersion string `json:"copilotVersion"`
	Context        *struct {
		CWD string `json:"cwd"`
	} `json:"context"`
	SelectedModel string `json:"selectedModel"`
	NewModel      string `json:"newModel"`

	Content            *string `json:"content"`
	TransformedContent *string `json:"transformedContent"`
	Source             string  `json:"source"`

	MessageID        string  `json:"messageId"`
	APICallID        string  `json:"apiCallId"`
	Model            string  `json:"model"`
	OutputTokens     int     `json:"outputTokens"`
	ReasoningText    *string `json:"reasoningText"`
	ReasoningOpaque  *string `json:"reasoningOpaque"`
	EncryptedContent *string `json:"encryptedContent"`
	ToolRequests     []struct {
		ToolCallID string          `json:"toolCallId"`
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
	} `json:"toolRequests"`

	ToolCallID string          `json:"toolCallId"`
	Success    *bool           `json:"success"`
	Result     json.RawMessage `json:"result"`
	Error      json.RawMessage `json:"error"`

	AgentDisplayName string `json:"agentDisplayName"`
	AgentDescription string `json:"agentDescription"`

	DroppedTokens  int `json:"droppedTokens"`
	TokensRemoved  int `json:"tokensRemovedDuringTruncation"`
	PreTruncTokens int `json:"preTruncationTokensInMessages"`
}

// decoder decodes an event log one line at a time.
type decoder struct {
	s    *session.Session
	t    *session.Thread // the main thread
	file string
	// at is the thread of the event being read; lastIDs the latest entry
	// of each thread, and agents the subagent threads by agentId.
	at      *session.Thread
	lastIDs map[*session.Thread]string
	agents  map[string]*session.Thread
	model   string
	names   map[string]string // tool name by call id
	// usages are usage records waiting for their response, and responses
	// the responses waiting for their usage record, by apiCallId.
	usages    map[string]*session.Usage
	responses map[string]placed
	fallback  norm.Fallback
	out       []jsonl.Update
}

func newDecoder(name string) *decoder {
	t := &session.Thread{ID: "main", Kind: session.ThreadMain}
	s := &session.Session{ID: sessionIDOf(name), Format: session.FormatCopilot, Agent: "copilot-cli", Source: name, Threads: []*session.Thread{t}}
	return &decoder{s: s, t: t, at: t, file: name, lastIDs: map[*session.Thread]string{}, agents: map[string]*session.Thread{},
		names: map[string]string{}, usages: map[string]*session.Usage{}, responses: map[string]placed{}}
}

// placed is an entry with its thread.
type placed struct {
	t *session.Thread
	e *session.Entry
}

// thread returns the thread of a subagent's events, made on first use.
func (d *decoder) thread(agentID string) *session.Thread {
	if agentID == "" {
		return d.t
	}
	if t, ok := d.agents[agentID]; ok {
		return t
	}
	t := &session.Thread{ID: agentID, Kind: session.ThreadSubagent, ParentID: d.t.ID}
	d.agents[agentID] = t
	d.s.Threads = append(d.s.Threads, t)
	return t
}

// sessionIDOf names a session by its file: <id>.jsonl, or <id>/events.jsonl.
func sessionIDOf(name string) string {
	base := norm.BaseID(name)
	if base == "events" {
		parts := strings.Split(strings.ReplaceAll(name, "\\", "/"), "/")
		if len(parts) >= 2 && parts[len(parts)-2] != "" {
			return parts[len(parts)-2]
		}
	}
	return base
}

// Session returns the session decoded so far.
func (d *decoder) Session() *session.Session { return d.s }

// Release lets go of the entries reported so far (see jsonl.Releaser).
func (d *decoder) Release() {
	d.fallback.Note(d.t)
	for _, t := range d.s.Threads {
		clear(t.Entries)
		t.Entries = t.Entries[:0]
	}
}

// Finish fills the fallback title and start time and returns the session.
func (d *decoder) Finish() *session.Session {
	d.fallback.Finish(d.s)
	return d.s
}

// Line decodes one event.
func (d *decoder) Line(raw []byte, n int, out []jsonl.Update) ([]jsonl.Update, error) {
	if !utf8.Valid(raw) {
		raw = norm.ValidUTF8(raw)
	}
	var ev event
	if err := json.Unmarshal(raw, &ev); err != nil {
		return out, fmt.Errorf("%s", norm.JSONError(err))
	}
	if ev.Type == "" {
		norm.Diag(d.s, d.file, n, session.SeverityError, "event without a type; line skipped")
		return out, nil
	}
	var dt data
	if len(ev.Data) > 0 && json.Unmarshal(ev.Data, &dt) != nil {
		norm.Diag(d.s, d.file, n, session.SeverityError, "%s event: its data is not an object; kept as metadata", ev.Type)
		dt = data{}
	}
	d.out = out
	d.at = d.thread(ev.AgentID)
	d.event(&ev, &dt, raw, n)
	return d.out, nil
}

// event converts one event.
func (d *decoder) event(ev *event, dt *data, raw []byte, n int) {
	ts := norm.Time(ev.Timestamp)
	switch ev.Type {
	case "subagent.started":
		if d.at != d.t && d.at.Title == "" {
			d.at.Title = strings.TrimSpace(first(dt.AgentDisplayName, ev.AgentID) + ": " + dt.AgentDescription)
		}
		d.meta(ev, raw, n, ts)
	case "session.start", "session.resume":
		d.start(dt, ts)
		d.meta(ev, raw, n, ts)
	case "session.model_change":
		if d.at == d.t {
			d.model = first(dt.NewModel, d.model)
		}
		e := d.add(ev, n, ts, session.EntryModelChange)
		e.Value = dt.NewModel
	case "system.message":
		d.message(ev, n, ts, &session.Message{Role: session.RoleSystem, Blocks: norm.Text(deref(dt.Content))})
	case "user.message":
		d.message(ev, n, ts, userMessage(dt))
	case "assistant.message":
		d.assistant(ev, dt, n, ts)
	case "session.usage_record":
		d.recordUsage(ev.Data)
		d.meta(ev, raw, n, ts)
	case "tool.execution_complete":
		res := session.Block{Type: session.BlockToolResult, ToolCallID: dt.ToolCallID, ToolName: d.names[dt.ToolCallID],
			Content: norm.Text(resultText(dt.Result, dt.Error)), IsError: dt.Success != nil && !*dt.Success}
		d.message(ev, n, ts, &session.Message{Role: session.RoleTool, Blocks: []session.Block{res}})
	case "session.truncation":
		e := d.add(ev, n, ts, session.EntryCompaction)
		e.Compaction = &session.Compaction{TokensBefore: dt.PreTruncTokens}
		e.Raw = append(json.RawMessage(nil), raw...)
	case "session.shutdown":
		d.recordShutdown(ev.Data)
		d.meta(ev, raw, n, ts)
	default:
		d.meta(ev, raw, n, ts)
	}
}

// start takes in what a session.start or session.resume tells of the
// session: its id, the agent's version, where it ran, when it began and
// the model chosen.
func (d *decoder) start(dt *data, ts time.Time) {
	if dt.SessionID != "" {
		d.s.ID = dt.SessionID
	}
	if dt.CopilotVersion != "" {
		d.s.Agent = "copilot-cli " + dt.CopilotVersion
	}
	if dt.Context != nil && d.s.CWD == "" {
		d.s.CWD = dt.Context.CWD
	}
	if d.s.Started.IsZero() {
		d.s.Started = ts
	}
	d.model = first(dt.SelectedModel, d.model)
}

// userMessage converts a user.message: the text as the model got it
// (transformed, when it was), from a skill when a skill sent it.
func userMessage(dt *data) *session.Message {
	text := deref(dt.TransformedContent)
	if text == "" {
		text = deref(dt.Content)
	}
	m := &session.Message{Role: session.RoleUser, Blocks: norm.Text(text)}
	if strings.HasPrefix(dt.Source, "skill-") || strings.HasPrefix(text, "<skill-context") {
		m.Origin = "skill"
	}
	return m
}

// assistant adds an assistant.message, with its call's usage when that
// was recorded already, else waiting for it.
func (d *decoder) assistant(ev *event, dt *data, n int, ts time.Time) {
	m := d.response(dt)
	e := d.message(ev, n, ts, m)
	if u := d.usageOf(dt.APICallID); u != nil {
		m.Usage = u
	} else if dt.APICallID != "" {
		if len(d.responses) >= maxWaiting {
			clear(d.responses) // a log whose calls record no usage
		}
		d.responses[dt.APICallID] = placed{d.at, e}
	}
}

// response converts an assistant.message.
func (d *decoder) response(dt *data) *session.Message {
	m := &session.Message{Role: session.RoleAssistant, ID: dt.MessageID, Model: first(dt.Model, d.model), Provider: "github-copilot"}
	if t := deref(dt.ReasoningText); strings.TrimSpace(t) != "" {
		m.Blocks = append(m.Blocks, session.Block{Type: session.BlockThinking, Text: t})
	}
	for _, opaque := range []*string{dt.ReasoningOpaque, dt.EncryptedContent} {
		if o := deref(opaque); o != "" {
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockOpaque, Size: len(o)})
		}
	}
	if t := deref(dt.Content); strings.TrimSpace(t) != "" {
		m.Blocks = append(m.Blocks, session.Block{Type: session.BlockText, Text: t})
	}
	for _, tr := range dt.ToolRequests {
		d.names[tr.ToolCallID] = tr.Name
		m.Blocks = append(m.Blocks, session.Block{Type: session.BlockToolCall, ToolCallID: tr.ToolCallID, ToolName: tr.Name,
			Arguments: arguments(tr.Arguments)})
	}
	if dt.OutputTokens > 0 {
		m.Usage = &session.Usage{Output: dt.OutputTokens} // Copilot records no input per response
	}
	return m
}

// arguments returns a call's arguments as JSON: Copilot writes them as a
// JSON string, or as an object.
func arguments(raw json.RawMessage) json.RawMessage {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if json.Valid([]byte(s)) {
			return json.RawMessage(s)
		}
		b, _ := json.Marshal(s)
		return b
	}
	return norm.NonNull(append(json.RawMessage(nil), raw...))
}

// resultText returns a tool result's text: the content the model reads.
func resultText(result, errRaw json.RawMessage) string {
	var r struct {
		Content *string `json:"content"`
	}
	if json.Unmarshal(result, &r) == nil && r.Content != nil {
		return *r.Content
	}
	var s string
	if json.Unmarshal(result, &s) == nil {
		return s
	}
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(errRaw, &e) == nil && e.Message != "" {
		return e.Message
	}
	if len(result) > 0 && string(result) != "null" {
		return string(result)
	}
	return string(errRaw)
}

// message adds a message entry and returns it.
func (d *decoder) message(ev *event, n int, ts timeT, m *session.Message) *session.Entry {
	m.Time = ts
	e := d.add(ev, n, ts, session.EntryMessage)
	e.Message = m
	return e
}

// meta keeps an event as metadata with its raw record.
func (d *decoder) meta(ev *event, raw []byte, n int, ts timeT) {
	e := d.add(ev, n, ts, session.EntryMeta)
	e.Value = ev.Type
	e.Raw = append(json.RawMessage(nil), raw...)
}

// add appends an entry to the event's thread, chained to the thread's
// previous one. Events carry their own ids, but files written by older
// versions repeat them: the line number keeps entry ids unique.
func (d *decoder) add(ev *event, n int, ts timeT, kind session.EntryKind) *session.Entry {
	t := d.at
	e := &session.Entry{ID: "L" + strconv.Itoa(n), ParentID: d.lastIDs[t], Line: n, Time: ts, Kind: kind, Type: ev.Type}
	d.lastIDs[t] = e.ID
	t.Entries = append(t.Entries, e)
	d.out = append(d.out, jsonl.Update{Thread: t, Entry: e})
	return e
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

type timeT = time.Time
