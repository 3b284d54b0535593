package proxyrec

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	json "github.com/segmentio/encoding/json"
	"github.com/valyala/fastjson"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/proxy"
	"ctxscope/engine/session"
)

// decoder decodes a record file one record at a time.
type decoder struct {
	s    *session.Session
	t    *session.Thread
	file string
	// path is the context of the latest request and its response: the
	// entries a later request shares as long as its messages are the
	// same.
	path     []node
	fallback norm.Fallback
	out      []jsonl.Update
	// memo has the messages of the latest request, which the next one
	// repeats.
	memo *messageMemo
}

// node is an entry on the path, with the hash of its message.
type node struct {
	id, hash string
}

func newDecoder(name string) *decoder {
	t := &session.Thread{ID: "main", Kind: session.ThreadMain}
	s := &session.Session{ID: norm.BaseID(name), Format: session.FormatProxy, Agent: "via ctxscope proxy", Source: name, Threads: []*session.Thread{t}}
	return &decoder{s: s, t: t, file: name, memo: &messageMemo{}}
}

// Session returns the session decoded so far.
func (d *decoder) Session() *session.Session { return d.s }

// Release lets go of the entries reported so far (see jsonl.Releaser).
func (d *decoder) Release() {
	d.fallback.Note(d.t)
	clear(d.t.Entries)
	d.t.Entries = d.t.Entries[:0]
}

// Finish fills the fallback title and start time and returns the session.
func (d *decoder) Finish() *session.Session {
	d.fallback.Finish(d.s)
	return d.s
}

// Line decodes one record.
func (d *decoder) Line(raw []byte, n int, out []jsonl.Update) ([]jsonl.Update, error) {
	var rec proxy.Record
	if err := json.Unmarshal(raw, &rec); err != nil {
		return out, errors.New(norm.JSONError(err))
	}
	d.out = out
	d.record(&rec, n)
	return d.out, nil
}

// record decodes one exchange, the record on line n, and returns where
// its request's messages stand in its body (nil when they were not read).
func (d *decoder) record(rec *proxy.Record, n int) *Layout {
	if d.s.Started.IsZero() {
		d.s.Started = rec.Started
	}
	if rec.Conversation != "" {
		d.s.ID = rec.Conversation
	}
	if rec.UserAgent != "" {
		d.s.Agent = norm.Short(rec.UserAgent, 80) + " via ctxscope proxy"
	}
	if id := agentSession(rec.Session); id != "" && len(d.t.Entries) == 0 && d.t.ID == "main" {
		d.t.ID = id
	}
	var req request
	body := rec.Request.Text
	if rec.Request.Base64 != "" {
		body = string(rec.Request.Raw())
	}
	d.memo.begin()
	switch {
	case rec.Request.Truncated:
		norm.Diag(d.s, d.file, n, session.SeverityWarning, "request %d: its body (%d bytes) was larger than the proxy keeps: its context is not shown", rec.Seq, rec.Request.Bytes)
	case fastjson.Validate(body) != nil:
		norm.Diag(d.s, d.file, n, session.SeverityWarning, "request %d: its body is not JSON: its context is not shown", rec.Seq)
	default:
		req = readRequest(rec.API, body, d.memo)
	}
	d.request(rec, &req, n)
	d.memo.end()
	return req.layout
}

// request places a request's messages and its response on the thread.
func (d *decoder) request(rec *proxy.Record, req *request, n int) {
	msgs := req.messages
	if req.system != nil {
		msgs = append([]*session.Message{req.system}, msgs...)
	}
	j := 0
	for j < len(d.path) && j < len(msgs) && d.path[j].hash == d.memo.hash(msgs[j]) {
		j++
	}
	path := d.path[:j:j]
	for k, m := range msgs[j:] {
		h := d.memo.hash(m)
		c := *m // the memo's message is shared with later requests
		m = &c
		if m.Role == session.RoleAssistant {
			m.Origin = session.OriginEcho // no response of this thread stands here
		}
		m.Time = rec.Started
		e := d.add("L"+strconv.Itoa(n)+"m"+strconv.Itoa(j+k), parentOf(path), n, "request", m)
		path = append(path, node{e.ID, h})
	}
	res := d.response(rec, req)
	e := d.add("L"+strconv.Itoa(n), parentOf(path), n, "response", res)
	e.Value = session.LiveNote(rec.Forwarded != nil, rec.Rewrite)
	d.path = append(path, node{e.ID, hashOf(res)})
}

// response is the assistant message answering rec: the response as
// assembled, with its usage; for a failed exchange, one with its error.
func (d *decoder) response(rec *proxy.Record, req *request) *session.Message {
	var r response
	if !rec.Response.Truncated && rec.Status >= 200 && rec.Status <= 299 {
		r = readResponse(rec.API, rec.Response.Raw())
	}
	m := r.message
	switch {
	case m == nil:
		m = assistant(nil)
		m.Error = failure(rec)
	case rec.Error != "":
		m.Error = failure(rec) // what came before the stream broke off is kept
	}
	m.Usage, m.Time = r.usage, rec.Started
	m.Model = cmpOr(m.Model, req.model)
	if rec.RetryOf > 0 {
		m.Error = strings.TrimSpace(m.Error + fmt.Sprintf(" (a retry of request %d)", rec.RetryOf))
	}
	return m
}

// failure says why an exchange has no response to show.
func failure(rec *proxy.Record) string {
	switch {
	case rec.Error != "":
		return "no response: " + rec.Error
	case rec.Status < 200 || rec.Status > 299:
		detail := strings.TrimSpace(string(rec.Response.Raw()))
		return fmt.Sprintf("HTTP %d %s: %s", rec.Status, http.StatusText(rec.Status), norm.ClipRunes(detail, 300))
	case rec.Response.Truncated:
		return fmt.Sprintf("the response (%d bytes) was larger than the proxy keeps", rec.Response.Bytes)
	}
	return "the response could not be read"
}

// agentSession is the session id an agent sends in its request headers
// (Claude Code's x-claude-code-session-id, Codex's session-id, OpenCode's
// x-session-id), which names its log too: the conversation's thread takes
// it, so that the log and the wire find each other.
func agentSession(h map[string]string) string {
	for _, name := range []string{"x-claude-code-session-id", "session-id", "session_id", "x-session-id", "conversation-id", "conversation_id"} {
		if v := h[name]; v != "" {
			return v
		}
	}
	return ""
}

func parentOf(path []node) string {
	if len(path) == 0 {
		return ""
	}
	return path[len(path)-1].id
}

// add appends a message entry.
func (d *decoder) add(id, parent string, n int, typ string, m *session.Message) *session.Entry {
	e := &session.Entry{ID: id, ParentID: parent, Line: n, Time: m.Time, Kind: session.EntryMessage, Type: typ, Message: m}
	d.t.Entries = append(d.t.Entries, e)
	d.t.LeafID = e.ID
	d.out = append(d.out, jsonl.Update{Thread: d.t, Entry: e})
	return e
}
