package pi

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strconv"

	"ctxscope/engine/session"
)

// importMessages reads a JSON array of AgentMessages, or a single
// AgentMessage object, as a linear thread. Array elements are decoded one
// at a time; each entry's Line is the line on which its element starts.
func importMessages(r io.Reader, name string, array bool) *session.Session {
	b := newBuilder(name)
	lc := &lineCounter{r: r}
	dec := json.NewDecoder(lc)
	if !array {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			b.diag(1, session.SeverityError, "invalid JSON: %s", jsonError(err))
		} else {
			b.addMessage(raw, 1, 0)
		}
		b.finish()
		return b.s
	}
	if _, err := dec.Token(); err != nil { // the opening bracket
		b.diag(1, session.SeverityError, "invalid JSON: %s", jsonError(err))
		return b.s
	}
	for n := 0; dec.More(); n++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			b.diag(lc.lineAt(dec.InputOffset()), session.SeverityError, "invalid JSON, rest of the array skipped: %s", jsonError(err))
			break
		}
		b.addMessage(raw, lc.lineAt(dec.InputOffset()-int64(len(raw))), n)
	}
	b.finish()
	return b.s
}

func (b *sessionBuilder) addMessage(raw json.RawMessage, line, n int) {
	m, warns, err := decodeMessage(raw)
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

// lineCounter records where the newlines are in what it has read, so that
// a decoder offset can be turned into a line number.
type lineCounter struct {
	r        io.Reader
	consumed int64
	newlines []int64
}

func (lc *lineCounter) Read(p []byte) (int, error) {
	n, err := lc.r.Read(p)
	for i := 0; i < n; {
		j := bytes.IndexByte(p[i:n], '\n')
		if j < 0 {
			break
		}
		lc.newlines = append(lc.newlines, lc.consumed+int64(i+j))
		i += j + 1
	}
	lc.consumed += int64(n)
	return n, err
}

// lineAt returns the 1-based line of byte offset off.
func (lc *lineCounter) lineAt(off int64) int {
	return 1 + sort.Search(len(lc.newlines), func(i int) bool { return lc.newlines[i] >= off })
}
