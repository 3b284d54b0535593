package pi

import (
	"encoding/json"
	"io"
	"strconv"

	"github.com/valyala/fastjson"

	"ctxscope/engine/ingest/internal/jsondoc"
	"ctxscope/engine/ingest/internal/norm"

	"ctxscope/engine/session"
)

// importMessages reads a JSON array of AgentMessages, or a single
// AgentMessage object, as a linear thread. Array elements are decoded one
// at a time; each entry's Line is the line on which its element starts.
func importMessages(r io.Reader, name string, array bool) *session.Session {
	b := newBuilder(name)
	b.s.Version = 0
	d := jsondoc.New(r)
	if !array {
		if raw, line, err := d.Raw(); err != nil {
			b.diag(line, session.SeverityError, "invalid JSON: %s", jsonError(err))
		} else {
			b.addMessage(raw, line, 0)
		}
		b.finish()
		return b.s
	}
	err := d.Array(func(n int) error {
		raw, line, err := d.Raw()
		if err == nil {
			b.addMessage(raw, line, n)
		}
		return err
	})
	if err != nil {
		b.diag(d.Line(), session.SeverityError, "invalid JSON, rest of the array skipped: %s", jsonError(err))
	}
	b.finish()
	return b.s
}

func (b *sessionBuilder) addMessage(raw json.RawMessage, line, n int) {
	var p fastjson.Parser
	v, err := p.ParseBytes(raw)
	if err != nil {
		b.diag(line, session.SeverityError, "message %d: %v; skipped", n, norm.FastJSONError(err))
		return
	}
	m, warns, err := decodeMessage(v)
	if err != nil {
		b.diag(line, session.SeverityError, "message %d: %v; skipped", n, err)
		return
	}
	for _, w := range warns {
		b.diag(line, session.SeverityWarning, "message %d: %s", n, w)
	}
	e := &session.Entry{ID: "m" + strconv.Itoa(n), ParentID: b.lastID, Line: line, Time: m.Time, Kind: session.EntryMessage, Type: "message", Message: m}
	b.lastID = e.ID
	b.t.Entries = append(b.t.Entries, e)
}
