package gemini

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strconv"

	"ctxscope/engine/ingest/internal/jsondoc"
	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/session"
)

// Sniff reports whether head starts a Gemini CLI chat or checkpoint, by
// its keys: a recording names its sessionId and projectHash; the lines of
// the JSON Lines layout after the first are messages (id, type user or
// gemini); a checkpoint is an array of {role, parts}.
func (Importer) Sniff(head []byte) bool {
	sh := jsondoc.ReadShape(head, "")
	if sh.Array {
		return sh.ElementHas("parts") && sh.ElementHas("role") && len(sh.ElementKeys) <= 3
	}
	if sh.Has("sessionId") && sh.Has("projectHash") {
		return true
	}
	for _, raw := range jsonl.FirstValues(head, 2) {
		var m struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		}
		if json.Unmarshal(raw, &m) == nil && m.ID != "" && m.Type == "gemini" {
			return true
		}
	}
	return false
}

// Lines reports whether head starts the JSON Lines layout, which
// NewDecoder reads record by record.
func (Importer) Lines(head []byte) bool {
	head = bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	i := bytes.IndexByte(head, '\n')
	return i > 0 && json.Valid(head[:i]) && !bytes.Contains(head[:i], []byte(`"messages"`))
}

// Import reads a chat or a checkpoint.
func (im Importer) Import(r io.Reader, name string) (*session.Session, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(64 << 10)
	switch {
	case im.Lines(head):
		return jsonl.Decode(br, name, newDecoder(name), 0)
	case jsondoc.ReadShape(head, "").Array:
		return readCheckpoint(br, name), nil
	}
	return readChat(br, name), nil
}

// NewDecoder returns an incremental decoder of the JSON Lines layout, for
// a live tail; name is used in diagnostics.
func (Importer) NewDecoder(name string) jsonl.Decoder { return newDecoder(name) }

func newSession(name string) *session.Session {
	t := &session.Thread{ID: "main", Kind: session.ThreadMain}
	return &session.Session{ID: norm.BaseID(name), Format: session.FormatGemini, Agent: "gemini-cli", Source: name, Threads: []*session.Thread{t}}
}

// header is a chat's metadata.
type header struct {
	SessionID string `json:"sessionId"`
	StartTime string `json:"startTime"`
	Kind      string `json:"kind"`
	Summary   string `json:"summary"`
}

func (h *header) apply(s *session.Session) {
	if h.SessionID != "" {
		s.ID = h.SessionID
	}
	if h.Kind == "subagent" {
		// Gemini CLI 0.6x writes a subagent's chat (invoke_agent) as
		// chats/<parent session id>/<its session id>.jsonl: a thread of
		// the parent's session, joined to it when both are read.
		t := s.Main()
		t.Kind, t.ID = session.ThreadSubagent, s.ID
		if parent := filepath.Base(filepath.Dir(s.Source)); parent != "chats" && parent != "." && parent != string(filepath.Separator) {
			t.ParentID = parent
		}
	}
	if t := norm.Time(h.StartTime); !t.IsZero() {
		s.Started = t
	}
	if h.Summary != "" {
		s.Title = norm.Short(h.Summary, 80)
	}
}

// readChat reads the one-document layout, message by message.
func readChat(r io.Reader, name string) *session.Session {
	s := newSession(name)
	w := &writer{s: s, t: s.Main()}
	var h header
	d := jsondoc.New(r)
	err := d.Object(func(key string) error {
		switch key {
		case "messages":
			return d.Array(func(int) error {
				raw, line, err := d.Raw()
				if err != nil {
					return err
				}
				w.message(raw, line, name)
				return nil
			})
		case "sessionId":
			return d.Decode(&h.SessionID)
		case "startTime":
			return d.Decode(&h.StartTime)
		case "summary":
			return d.Decode(&h.Summary)
		}
		return d.Skip()
	})
	if err != nil {
		norm.Diag(s, name, d.Line(), session.SeverityError, "%s; the rest of the file was not read", norm.JSONError(err))
	}
	h.apply(s)
	norm.Finish(s)
	return s
}

// writer turns chat messages into entries. A message written again (the
// JSON Lines layout's updates) replaces its entries in place.
type writer struct {
	s      *session.Session
	t      *session.Thread
	lastID string
	// byID holds the entries of recent messages, which a later copy may
	// replace; older ones are forgotten (keep bounds it).
	byID  map[string]*placed
	order []string
	out   []jsonl.Update
}

// placed is the entries one message became.
type placed struct {
	message, results *session.Entry
}

// keep is how many recent messages a writer remembers for replacement.
const keep = 64

// message converts one raw chat message.
func (w *writer) message(raw json.RawMessage, line int, file string) {
	var cm chatMessage
	if err := json.Unmarshal(raw, &cm); err != nil {
		norm.Diag(w.s, file, line, session.SeverityError, "message: %s; skipped", norm.JSONError(err))
		return
	}
	c := convert(&cm)
	if p, ok := w.byID[cm.ID]; ok && cm.ID != "" {
		w.replace(p, c, line)
		return
	}
	p := &placed{message: w.add("m"+strconv.Itoa(line), line, cm.Type, c)}
	if c.results != nil {
		p.results = w.add("m"+strconv.Itoa(line)+"r", line, "tool_results", converted{kind: session.EntryMessage, message: c.results})
	}
	w.remember(cm.ID, p)
}

// replace puts a message's new copy in the place of its entries.
func (w *writer) replace(p *placed, c converted, line int) {
	p.message.Kind, p.message.Message, p.message.Value = c.kind, c.message, c.value
	w.out = append(w.out, jsonl.Update{Thread: w.t, Entry: p.message, Merged: true})
	switch {
	case c.results != nil && p.results != nil:
		p.results.Message = c.results
		w.out = append(w.out, jsonl.Update{Thread: w.t, Entry: p.results, Merged: true})
	case c.results != nil:
		p.results = w.add("m"+strconv.Itoa(line)+"r", line, "tool_results", converted{kind: session.EntryMessage, message: c.results})
	}
}

// add appends an entry chained to the previous one.
func (w *writer) add(id string, line int, typ string, c converted) *session.Entry {
	e := &session.Entry{ID: id, ParentID: w.lastID, Line: line, Kind: c.kind, Type: typ, Message: c.message, Value: c.value}
	if c.message != nil {
		e.Time = c.message.Time
	}
	w.lastID = e.ID
	w.t.Entries = append(w.t.Entries, e)
	w.out = append(w.out, jsonl.Update{Thread: w.t, Entry: e})
	return e
}

func (w *writer) remember(id string, p *placed) {
	if id == "" {
		return
	}
	if w.byID == nil {
		w.byID = map[string]*placed{}
	}
	w.byID[id] = p
	w.order = append(w.order, id)
	if len(w.order) > keep {
		delete(w.byID, w.order[0])
		w.order = w.order[1:]
	}
}
