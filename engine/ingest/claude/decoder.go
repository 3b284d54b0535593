package claude

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"unicode/utf8"

	"github.com/valyala/fastjson"

	"strconv"
	"strings"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/session"
)

// Importer reads Claude Code transcripts. The zero value is ready to use.
type Importer struct{}

// Format returns [session.FormatClaudeCode].
func (Importer) Format() session.Format { return session.FormatClaudeCode }

// Import reads one transcript file. Malformed lines become diagnostics and
// are skipped; only a read failure is returned as an error.
func (Importer) Import(r io.Reader, name string) (*session.Session, error) {
	return jsonl.Decode(r, name, newDecoder(name), 0)
}

// NewDecoder returns an incremental decoder of one transcript file, for a
// live tail; name is used in diagnostics.
func (Importer) NewDecoder(name string) jsonl.Decoder { return newDecoder(name) }

// placed is an entry and the thread that holds it.
type placed struct {
	t *session.Thread
	e *session.Entry
}

// latest is a thread's latest assistant entry and the line it was last
// extended on.
type latest struct {
	placed
	line int
}

// ref names an entry by id, with its thread; it does not keep the entry
// alive.
type ref struct {
	t  *session.Thread
	id string
}

// decoder decodes a transcript one line at a time.
type decoder struct {
	s    *session.Session
	file string
	main *session.Thread
	// named is set once the main thread has taken its id from a record.
	named bool
	// byUUID maps every imported uuid, aliases of merged lines included,
	// to its entry; byMsgID maps an assistant message id to its entry.
	byUUID  *uuidIndex
	byMsgID map[string]placed
	// lastAsst is each thread's latest assistant entry, which Release
	// keeps so that the next line of a split response still merges.
	lastAsst map[*session.Thread]latest
	line     int // the line being decoded
	pruned   int // the line lastAsst was last pruned at
	// Once Release has been called, dirty lists the threads that gained
	// entries since, and stale the message ids that stopped being their
	// thread's latest, so that Release costs what changed, not the file.
	released bool
	dirty    []*session.Thread
	// fallback keeps the start time and title of released entries.
	fallback norm.Fallback
	stale    []string
	// titleRank ranks where the title came from (see title); newTypes
	// are the unknown record types already warned of.
	titleRank int
	newTypes  map[string]bool
	// dupLine is the first line that repeated an imported uuid; dups
	// counts such lines.
	dupLine, dups int
	// wire is what the request records of Claude Code 2.1.33x apply to
	// (wire.go).
	wire   wireState
	parser fastjson.Parser
	rec    record
}

func newDecoder(name string) *decoder {
	main := &session.Thread{ID: "main", Kind: session.ThreadMain}
	s := &session.Session{ID: norm.BaseID(name), Format: session.FormatClaudeCode, Agent: "claude-code", Source: name, Threads: []*session.Thread{main}}
	return &decoder{s: s, file: name, main: main, byUUID: newUUIDIndex(), byMsgID: map[string]placed{}, lastAsst: map[*session.Thread]latest{}}
}

// Session returns the session decoded so far.
func (d *decoder) Session() *session.Session { return d.s }

// Release lets go of the entries reported so far (see jsonl.Releaser).
// It keeps each thread's latest response, so that the next line of a split
// response still merges, for genSize lines after the thread last grew;
// later lines of an older response start entries of their own.
func (d *decoder) Release() {
	threads := d.dirty
	if !d.released {
		d.released, d.byUUID.bounded = true, true
		threads = d.s.Threads
		d.stale = d.stale[:0]
		for id := range d.byMsgID {
			d.stale = append(d.stale, id)
		}
	}
	d.fallback.Note(d.main)
	for _, t := range threads {
		clear(t.Entries)
		t.Entries = t.Entries[:0]
	}
	if d.line-d.pruned > genSize {
		d.pruned = d.line
		for t, l := range d.lastAsst {
			if l.line < d.line-genSize {
				delete(d.lastAsst, t)
				d.stale = append(d.stale, l.e.Message.ID)
			}
		}
	}
	for _, id := range d.stale {
		if p, ok := d.byMsgID[id]; ok && d.lastAsst[p.t].e != p.e {
			delete(d.byMsgID, id)
		}
	}
	d.dirty, d.stale = d.dirty[:0], d.stale[:0]
}

// Finish fills the fallback title and start time, reports skipped
// duplicates, and returns the session.
func (d *decoder) Finish() *session.Session {
	if d.dups > 0 {
		norm.Diag(d.s, d.file, d.dupLine, session.SeverityWarning,
			"%d record(s) repeat a uuid imported earlier (a resumed session copies its history); the first of each was kept", d.dups)
		d.dups = 0
	}
	d.fallback.Finish(d.s)
	return d.s
}

// Line decodes one record.
func (d *decoder) Line(line []byte, n int, out []jsonl.Update) ([]jsonl.Update, error) {
	d.line = n
	if !utf8.Valid(line) {
		line = norm.ValidUTF8(line) // as encoding/json reads it: U+FFFD for each bad byte
	}
	v, err := d.parser.ParseBytes(line)
	if len(line) > norm.BigRecord {
		// The parser keeps a copy of the line it parsed; what the record
		// holds is read out below, so a huge record's copy goes with it.
		defer func() { d.parser = fastjson.Parser{} }()
	}
	if err != nil {
		return out, norm.FastJSONError(err)
	}
	if v.Type() != fastjson.TypeObject {
		return out, fmt.Errorf("expected a JSON object, got %s", v.Type())
	}
	rec := &d.rec
	readRecord(v, rec)
	switch {
	case rec.Type == "":
		norm.Diag(d.s, d.file, n, session.SeverityError, "record without a type; line skipped")
		return out, nil
	}
	d.noteType(rec.Type, n)
	switch {
	case rec.Type == "summary" || rec.Type == "ai-title" || rec.Type == "custom-title":
		return d.title(rec, line, n, out), nil
	case rec.UUID != "":
		return d.treeRecord(rec, line, n, out), nil
	case rec.Type == "api-request-blob":
		out = d.blob(v, n, out)
	case rec.Type == "api-request-shape":
		out = d.shape(v, rec, n, out)
	}
	d.noteSession(rec)
	e := &session.Entry{ID: "L" + strconv.Itoa(n), Line: n, Time: norm.Time(rec.Timestamp), Kind: session.EntryMeta, Type: rec.Type, Raw: copyRaw(line)}
	d.appendEntry(d.main, e)
	return append(out, jsonl.Update{Thread: d.main, Entry: e}), nil
}

// noteType warns, once per type, of a record type this importer does not
// know: it is kept as metadata, and the file is still read in full.
func (d *decoder) noteType(typ string, n int) {
	if knownTypes[typ] || d.newTypes[typ] {
		return
	}
	if d.newTypes == nil {
		d.newTypes = map[string]bool{}
	}
	d.newTypes[typ] = true
	norm.Diag(d.s, d.file, n, session.SeverityWarning, "record type %q is new to ctxscope; such records are kept as metadata", typ)
}

// title records a line that names the session: a summary line (the title
// Claude Code gives a conversation in its list; it changes no request's
// input and is not a compaction), an ai-title or a custom-title. A custom
// title beats a generated one, which beats a summary.
func (d *decoder) title(rec *record, line []byte, n int, out []jsonl.Update) []jsonl.Update {
	text, rank := rec.Summary, 1
	switch rec.Type {
	case "ai-title":
		text, rank = rec.AITitle, 2
	case "custom-title":
		text, rank = rec.CustomTitle, 3
	}
	e := &session.Entry{ID: "L" + strconv.Itoa(n), Line: n, Time: norm.Time(rec.Timestamp), Kind: session.EntrySessionInfo,
		Type: rec.Type, Value: text, Target: rec.LeafUUID, Raw: copyRaw(line)}
	if text = norm.Short(text, 80); text != "" && rank >= d.titleRank {
		d.s.Title, d.titleRank = text, rank
	}
	d.appendEntry(d.main, e)
	return append(out, jsonl.Update{Thread: d.main, Entry: e})
}

// treeRecord places a record that has a uuid in the entry tree.
func (d *decoder) treeRecord(rec *record, line []byte, n int, out []jsonl.Update) []jsonl.Update {
	if _, dup := d.byUUID.get(rec.UUID); dup {
		if d.dups == 0 {
			d.dupLine = n
		}
		d.dups++
		return out
	}
	d.noteSession(rec)
	t := d.threadFor(rec)
	if rec.Type == "assistant" && rec.Message != nil && rec.Message.ID != "" {
		if p, ok := d.byMsgID[rec.Message.ID]; ok && p.t == t {
			if d.merge(p.e, rec, n) {
				if l, ok := d.lastAsst[t]; ok && l.e == p.e {
					d.lastAsst[t] = latest{p, n}
				}
				d.byUUID.put(rec.UUID, ref{t, p.e.ID})
				return append(out, jsonl.Update{Thread: t, Entry: p.e, Merged: true})
			}
		}
	}
	e := &session.Entry{ID: rec.UUID, ParentID: d.parentOf(rec), Line: n, Time: norm.Time(rec.Timestamp), Type: rec.Type}
	d.fill(e, rec, line, n)
	d.appendEntry(t, e)
	d.noteUserEntry(t, e, n)
	d.wire.lastTree = placed{t, e}
	d.byUUID.put(rec.UUID, ref{t, e.ID})
	if e.Message != nil && e.Message.Role == session.RoleAssistant && e.Message.ID != "" {
		if old, ok := d.lastAsst[t]; ok && d.released {
			d.stale = append(d.stale, old.e.Message.ID)
		}
		d.byMsgID[e.Message.ID] = placed{t, e}
		d.lastAsst[t] = latest{placed{t, e}, n}
	}
	return append(out, jsonl.Update{Thread: t, Entry: e})
}

// noteSession takes the session's id, agent version, directory and
// version from the first record that has them.
func (d *decoder) noteSession(rec *record) {
	if !d.named && rec.SessionID != "" {
		d.named = true
		d.s.ID = rec.SessionID
		if rec.IsSidechain && rec.AgentID != "" {
			// A version 2 subagent file: the whole file is one thread.
			parent := rec.SessionID
			if p := sessionOfSubagentFile(d.file); p != "" && p != parent {
				// The file's place names its session when the records
				// carry the agent's own id instead.
				parent = p
			}
			d.main.Kind, d.main.ID, d.main.ParentID = session.ThreadSubagent, "agent-"+rec.AgentID, parent
			d.s.ID = parent + "/agent-" + rec.AgentID
		}
	}
	if d.s.CWD == "" {
		d.s.CWD = rec.CWD
	}
	if rec.Version != "" && d.s.Version == 0 {
		d.s.Agent = "claude-code " + rec.Version
		major, _, _ := strings.Cut(rec.Version, ".")
		d.s.Version, _ = strconv.Atoi(major)
	}
	if d.s.Started.IsZero() {
		d.s.Started = norm.Time(rec.Timestamp)
	}
}

// threadFor returns the thread a record belongs to. Inline sidechain
// records go to the thread of their parent, or start a new subagent thread
// when their parent is not a sidechain record.
func (d *decoder) threadFor(rec *record) *session.Thread {
	if !rec.IsSidechain || d.main.Kind == session.ThreadSubagent {
		return d.main
	}
	if rec.ParentUUID != nil {
		if p, ok := d.byUUID.get(*rec.ParentUUID); ok && p.t != d.main {
			return p.t
		}
	}
	t := &session.Thread{ID: "sidechain-" + rec.UUID, Kind: session.ThreadSubagent, ParentID: d.main.ID}
	if rec.Message != nil {
		if blocks, _, err := decodeContent(rec.Message.Content); err == nil {
			for _, b := range blocks {
				if b.Type == session.BlockText {
					t.Title = norm.Short(b.Text, 80)
					break
				}
			}
		}
	}
	d.s.Threads = append(d.s.Threads, t)
	return t
}

// parentOf resolves a record's parent uuid through the aliases of merged
// lines. A compact boundary, which starts a new root, hangs from its
// logical parent so that the tree stays connected.
func (d *decoder) parentOf(rec *record) string {
	id := ""
	if rec.ParentUUID != nil {
		id = *rec.ParentUUID
	}
	if id == "" {
		id = rec.LogicalParentUUID
	}
	if p, ok := d.byUUID.get(id); ok {
		return p.id
	}
	return id
}

// appendEntry adds e to t, noting t for Release.
func (d *decoder) appendEntry(t *session.Thread, e *session.Entry) {
	t.Entries = append(t.Entries, e)
	if d.released && len(t.Entries) == 1 {
		d.dirty = append(d.dirty, t)
	}
}

func copyRaw(line []byte) json.RawMessage { return append(json.RawMessage(nil), line...) }

// sessionOfSubagentFile returns the session a subagent transcript belongs
// to by where Claude Code 2 writes it, <session>/subagents/agent-*.jsonl,
// or "" when path is elsewhere.
func sessionOfSubagentFile(path string) string {
	dir := filepath.Dir(path)
	if filepath.Base(dir) != "subagents" || !strings.HasPrefix(filepath.Base(path), "agent-") {
		return ""
	}
	return filepath.Base(filepath.Dir(dir))
}
