package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/session"
)

// Importer reads Codex rollouts. The zero value is ready to use.
type Importer struct{}

// Format returns [session.FormatCodex].
func (Importer) Format() session.Format { return session.FormatCodex }

// Import reads one rollout. Malformed lines become diagnostics and are
// skipped; only a read failure is returned as an error.
func (Importer) Import(r io.Reader, name string) (*session.Session, error) {
	return jsonl.Decode(r, name, newDecoder(name), 0)
}

// NewDecoder returns an incremental decoder of one rollout, for a live
// tail; name is used in diagnostics.
func (Importer) NewDecoder(name string) jsonl.Decoder { return newDecoder(name) }

// decoder decodes a rollout one line at a time.
type decoder struct {
	s     *session.Session
	t     *session.Thread
	file  string
	lines int
	// open is the assistant entry of the response being read, nil between
	// responses; last is the latest assistant entry, which a token_count
	// event reports on.
	open, last *session.Entry
	lastID     string
	model      string
	// responses are the response ids whose token_usage_record was applied;
	// once a rollout has such records, they alone give each response's
	// usage and token_count events only the running total.
	responses map[string]bool
	// total is the running total of the latest token_count event: one
	// that repeats it reports no new response.
	total *tokenUsage
	out   []jsonl.Update
	// fallback keeps the start time and title of released entries.
	fallback norm.Fallback
}

func newDecoder(name string) *decoder {
	t := &session.Thread{ID: "main", Kind: session.ThreadMain}
	s := &session.Session{ID: norm.BaseID(name), Format: session.FormatCodex, Agent: "codex", Source: name, Threads: []*session.Thread{t}}
	return &decoder{s: s, t: t, file: name}
}

// Release lets go of the entries reported so far (see jsonl.Releaser).
func (d *decoder) Release() {
	d.fallback.Note(d.t)
	clear(d.t.Entries)
	d.t.Entries = d.t.Entries[:0]
}

// Session returns the session decoded so far.
func (d *decoder) Session() *session.Session { return d.s }

// Finish fills the fallback title and start time and returns the session.
func (d *decoder) Finish() *session.Session {
	d.fallback.Finish(d.s)
	return d.s
}

// Line decodes one rollout line.
func (d *decoder) Line(raw []byte, n int, out []jsonl.Update) ([]jsonl.Update, error) {
	var ln line
	if err := json.Unmarshal(raw, &ln); err != nil {
		return out, errors.New(norm.JSONError(err))
	}
	d.lines++
	d.out = out
	ts := norm.Time(ln.Timestamp)
	switch {
	case ln.Payload != nil && ln.Type != "":
		d.modern(&ln, n, ts)
	case ln.RecordType != "":
		d.meta(n, ts, ln.RecordType, nil)
	case ln.Type == "" && ln.ID != "" && d.lines == 1:
		d.legacyHeader(&ln, n, ts)
	case ln.Type != "":
		d.item(raw, n, ts)
	default:
		norm.Diag(d.s, d.file, n, session.SeverityError, "record without a type; line skipped")
	}
	return d.out, nil
}

func (d *decoder) modern(ln *line, n int, ts timeT) {
	switch ln.Type {
	case "session_meta":
		d.sessionMeta(ln.Payload, n, ts)
	case "token_usage_record":
		d.usageRecord(ln.Payload, n, ts)
	case "response_item":
		d.item(ln.Payload, n, ts)
	case "event_msg":
		d.event(ln.Payload, n, ts)
	case "turn_context":
		d.turnContext(ln.Payload, n, ts)
	case "compacted":
		var c compacted
		if err := json.Unmarshal(ln.Payload, &c); err != nil {
			norm.Diag(d.s, d.file, n, session.SeverityError, "compacted: %s; line skipped", norm.JSONError(err))
			return
		}
		d.open = nil
		e := d.add(n, ts, session.EntryCompaction, ln.Type)
		e.Compaction = &session.Compaction{Summary: c.Message}
		if c.Message == "" {
			e.Compaction.Summary = historyText(c.ReplacementHistory)
		}
		e.Raw = append(json.RawMessage(nil), ln.Payload...)
	default:
		d.meta(n, ts, ln.Type, ln.Payload)
	}
}

// historyText writes the items that replace a compacted history as the
// summary's text: each message's text with its role. Encrypted parts are
// left out: they are not text.
func historyText(items []item) string {
	var b strings.Builder
	for i := range items {
		it := &items[i]
		if it.Type != "message" && it.Type != "agent_message" {
			continue
		}
		for _, p := range parts(it.Content) {
			if p.Text == "" {
				continue
			}
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(it.Role + ": " + p.Text)
		}
	}
	return b.String()
}

func (d *decoder) sessionMeta(payload json.RawMessage, n int, ts timeT) {
	var m sessionMeta
	if err := json.Unmarshal(payload, &m); err != nil {
		norm.Diag(d.s, d.file, n, session.SeverityError, "session_meta: %s; line skipped", norm.JSONError(err))
		return
	}
	if m.ID != "" {
		d.s.ID, d.t.ID = m.ID, m.ID
	}
	d.s.CWD = m.CWD
	if t := norm.Time(m.Timestamp); !t.IsZero() {
		d.s.Started = t
	}
	d.s.Agent = "codex"
	if m.CLIVersion != "" {
		d.s.Agent = "codex " + m.CLIVersion
	}
	if parent := subagentParent(&m); parent != "" {
		d.t.Kind, d.t.ParentID = session.ThreadSubagent, parent
	}
	d.meta(n, ts, "session_meta", nil)
	switch {
	case m.BaseInstructions != nil && m.BaseInstructions.Text != "":
		d.system(n, ts, m.BaseInstructions.Text)
	case m.Instructions != nil && *m.Instructions != "":
		d.system(n, ts, *m.Instructions)
	}
}

// subagentParent returns the parent thread of a subagent rollout: the
// parent_thread_id, or the one an object-valued source names, directly
// (older versions) or under thread_spawn (0.14x).
func subagentParent(m *sessionMeta) string {
	if m.ParentThreadID != "" {
		return m.ParentThreadID
	}
	src := bytes.TrimSpace(m.Source)
	if len(src) == 0 || src[0] != '{' {
		return ""
	}
	var s struct {
		Subagent json.RawMessage `json:"subagent"`
	}
	if json.Unmarshal(src, &s) != nil || s.Subagent == nil {
		return ""
	}
	var sub struct {
		ParentThreadID string `json:"parent_thread_id"`
		ThreadSpawn    *struct {
			ParentThreadID string `json:"parent_thread_id"`
		} `json:"thread_spawn"`
	}
	_ = json.Unmarshal(s.Subagent, &sub) // a string-valued subagent names no parent
	if sub.ThreadSpawn != nil && sub.ThreadSpawn.ParentThreadID != "" {
		return sub.ThreadSpawn.ParentThreadID
	}
	return sub.ParentThreadID
}

func (d *decoder) legacyHeader(ln *line, n int, ts timeT) {
	d.s.ID, d.t.ID = ln.ID, ln.ID
	d.s.Started = ts
	d.meta(n, ts, "header", nil)
	if ln.Instructions != nil && *ln.Instructions != "" {
		d.system(n, ts, *ln.Instructions)
	}
}

func (d *decoder) turnContext(payload json.RawMessage, n int, ts timeT) {
	var tc turnContext
	if err := json.Unmarshal(payload, &tc); err != nil {
		norm.Diag(d.s, d.file, n, session.SeverityError, "turn_context: %s; line skipped", norm.JSONError(err))
		return
	}
	if tc.Model != "" && tc.Model != d.model {
		d.model = tc.Model
		e := d.add(n, ts, session.EntryModelChange, "turn_context")
		e.Value = tc.Model
		return
	}
	d.meta(n, ts, "turn_context", nil)
}

func (d *decoder) event(payload json.RawMessage, n int, ts timeT) {
	var ev event
	if err := json.Unmarshal(payload, &ev); err != nil {
		norm.Diag(d.s, d.file, n, session.SeverityError, "event_msg: %s; line skipped", norm.JSONError(err))
		return
	}
	if ev.Type == "token_count" {
		d.tokenCount(&ev)
	}
	if ev.Type == "user_message" {
		d.open = nil
	}
	// Every event, token_count included, is also kept as metadata.
	e := d.add(n, ts, session.EntryMeta, "event_msg")
	e.Value = ev.Type
	switch ev.Type {
	case "user_message", "agent_message", "agent_reasoning", "token_count":
		// Duplicates of response items, or usage already applied.
	default:
		e.Raw = append(json.RawMessage(nil), payload...)
	}
}

// tokenCount applies a token_count event. Its last usage is the latest
// response's, unless token_usage_records give the usage per response, the
// latest response already has its usage, or the event repeats the running
// total of the one before it (Codex emits it again when only the rate
// limits changed): usage counts once per response. Its running total is
// what the agent recorded for the session: the last one stands.
func (d *decoder) tokenCount(ev *event) {
	d.open = nil
	if ev.Info == nil {
		return
	}
	repeat := ev.Info.Total != nil && d.total != nil && *ev.Info.Total == *d.total
	if ev.Info.Last != nil && d.responses == nil && !repeat && d.last != nil && d.last.Message.Usage == nil {
		u := ev.Info.Last.usage()
		u.ContextWindow = ev.Info.ContextWindow
		d.setUsage(d.last, u)
	}
	if ev.Info.Total != nil {
		d.total = ev.Info.Total
		d.s.Recorded = &session.Recorded{Usage: ev.Info.Total.usage(), From: "token_count.info.total_token_usage"}
	}
}

// usageRecord applies a token_usage_record (Codex 0.17x): the usage of
// one response, named by its id, given to the latest response read. A
// record of a response already applied is a repeat.
func (d *decoder) usageRecord(payload json.RawMessage, n int, ts timeT) {
	var rec usageRecord
	if err := json.Unmarshal(payload, &rec); err != nil {
		norm.Diag(d.s, d.file, n, session.SeverityError, "token_usage_record: %s; line skipped", norm.JSONError(err))
		return
	}
	d.meta(n, ts, "token_usage_record", nil)
	if d.responses == nil {
		d.responses = map[string]bool{}
	}
	if rec.Usage == nil || (rec.ResponseID != "" && d.responses[rec.ResponseID]) {
		return
	}
	d.responses[rec.ResponseID] = true
	d.open = nil
	if d.last == nil || d.last.Message.Usage != nil {
		norm.Diag(d.s, d.file, n, session.SeverityWarning, "token_usage_record of response %q: no response of its own to give it to; not counted", rec.ResponseID)
		return
	}
	d.last.Message.ID = cmpOr(d.last.Message.ID, rec.ResponseID)
	d.setUsage(d.last, rec.Usage.usage())
}

func (d *decoder) setUsage(e *session.Entry, u session.Usage) {
	e.Message.Usage = &u
	d.out = append(d.out, jsonl.Update{Thread: d.t, Entry: e, Merged: true})
}

func cmpOr(s, def string) string {
	if s != "" {
		return s
	}
	return def
}

// add appends a new entry chained to the previous one.
func (d *decoder) add(n int, ts timeT, kind session.EntryKind, typ string) *session.Entry {
	e := &session.Entry{ID: "L" + strconv.Itoa(n), ParentID: d.lastID, Line: n, Time: ts, Kind: kind, Type: typ}
	d.lastID = e.ID
	d.t.Entries = append(d.t.Entries, e)
	d.out = append(d.out, jsonl.Update{Thread: d.t, Entry: e})
	return e
}

func (d *decoder) meta(n int, ts timeT, typ string, raw json.RawMessage) {
	e := d.add(n, ts, session.EntryMeta, typ)
	if raw != nil {
		e.Raw = append(json.RawMessage(nil), raw...)
	}
}

func (d *decoder) system(n int, ts timeT, text string) {
	e := d.add(n, ts, session.EntryMessage, "instructions")
	e.ID += "s"
	d.lastID = e.ID
	e.Message = &session.Message{Role: session.RoleSystem, Time: ts, Blocks: norm.Text(text)}
}
