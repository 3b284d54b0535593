package gemini

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/session"
)

// decoder decodes the JSON Lines layout one line at a time.
type decoder struct {
	w        *writer
	file     string
	fallback norm.Fallback
}

func newDecoder(name string) *decoder {
	s := newSession(name)
	return &decoder{w: &writer{s: s, t: s.Main()}, file: name}
}

// Session returns the session decoded so far.
func (d *decoder) Session() *session.Session { return d.w.s }

// Release lets go of the entries reported so far (see jsonl.Releaser);
// the recent messages a later copy may replace stay known.
func (d *decoder) Release() {
	d.fallback.Note(d.w.t)
	clear(d.w.t.Entries)
	d.w.t.Entries = d.w.t.Entries[:0]
}

// Finish fills the fallback title and start time and returns the session.
func (d *decoder) Finish() *session.Session {
	d.fallback.Finish(d.w.s)
	return d.w.s
}

// Line decodes one line: the metadata, a $set update of it, or a message.
func (d *decoder) Line(raw []byte, n int, out []jsonl.Update) ([]jsonl.Update, error) {
	if !utf8.Valid(raw) {
		raw = norm.ValidUTF8(raw)
	}
	var probe struct {
		SessionID string          `json:"sessionId"`
		Set       json.RawMessage `json:"$set"`
		Type      string          `json:"type"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		return out, fmt.Errorf("%s", norm.JSONError(err))
	}
	d.w.out = out
	switch {
	case probe.Set != nil:
		var h header
		if json.Unmarshal(probe.Set, &h) == nil {
			h.apply(d.w.s)
		}
		// 0.6x sets the first messages this way (the session context it
		// sends before the prompt); a message already read is replaced.
		var set struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if json.Unmarshal(probe.Set, &set) == nil {
			for _, m := range set.Messages {
				d.w.message(m, n, d.file)
			}
		}
	case probe.SessionID != "" && probe.Type == "":
		var h header
		if json.Unmarshal(raw, &h) == nil {
			h.apply(d.w.s)
		}
	default:
		d.w.message(raw, n, d.file)
	}
	return d.w.out, nil
}
