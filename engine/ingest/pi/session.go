package pi

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/valyala/fastjson"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/session"
)

// Importer reads pi sessions. The zero value is ready to use.
type Importer struct{}

// Format returns [session.FormatPi].
func (Importer) Format() session.Format { return session.FormatPi }

// Import reads a pi session from r; name is the file name used in
// diagnostics. A JSON array, or a single object with a role, is read as
// AgentMessages; anything else as session JSONL. Malformed records
// are reported as diagnostics and skipped; only a read failure is returned
// as an error.
func (Importer) Import(r io.Reader, name string) (*session.Session, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	switch sniff(br) {
	case shapeArray:
		return importMessages(br, name, true), nil
	case shapeObject:
		return importMessages(br, name, false), nil
	}
	return importJSONL(br, name)
}

// sessionBuilder accumulates a session while records stream in.
type sessionBuilder struct {
	s       *session.Session
	t       *session.Thread
	file    string
	version int
	lastID  string
	// records counts the parsed records, header included; byIndex maps a
	// record's 0-based index to its entry id, to migrate v1 compactions'
	// firstKeptEntryIndex, which indexes the parsed records as pi does.
	records  int
	byIndex  map[int]string
	compacts []pendingCompaction
	// started and title are the fallbacks of released entries; noted
	// tells that the first entry was seen.
	started time.Time
	title   string
	noted   bool
	// late lists the entries finish changed after reporting them.
	late []jsonl.Update
}

type pendingCompaction struct {
	entry *session.Entry
	index int
	line  int
}

func (b *sessionBuilder) diag(line int, sev session.Severity, format string, args ...any) {
	b.s.Diagnostics = append(b.s.Diagnostics, session.Diagnostic{File: b.file, Line: line, Severity: sev, Message: fmt.Sprintf(format, args...)})
}

func newBuilder(name string) *sessionBuilder {
	t := &session.Thread{ID: "main", Kind: session.ThreadMain}
	s := &session.Session{
		ID:      strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)),
		Format:  session.FormatPi,
		Agent:   "pi",
		Source:  name,
		Threads: []*session.Thread{t},
	}
	return &sessionBuilder{s: s, t: t, file: name, version: 1, byIndex: map[int]string{}}
}

func importJSONL(r io.Reader, name string) (*session.Session, error) {
	return jsonl.Decode(r, name, newDecoder(name), 0)
}

// NewDecoder returns an incremental decoder of pi session JSONL, for a
// live tail; name is used in diagnostics.
func (Importer) NewDecoder(name string) jsonl.Decoder { return newDecoder(name) }

// Lines reports whether head starts a session file of JSON Lines, which
// NewDecoder reads, rather than a message array or object, which Import
// reads whole.
func (Importer) Lines(head []byte) bool { return sniffHead(head) == shapeJSONL }

// decoder decodes pi session JSONL one line at a time.
type decoder struct {
	b         *sessionBuilder
	sawHeader bool
	parser    fastjson.Parser
}

func newDecoder(name string) *decoder { return &decoder{b: newBuilder(name)} }

// Release lets go of the entries reported so far (see jsonl.Releaser),
// keeping the start time and title they give.
func (d *decoder) Release() {
	d.b.note()
	clear(d.b.t.Entries)
	d.b.t.Entries = d.b.t.Entries[:0]
}

// Session returns the session decoded so far.
func (d *decoder) Session() *session.Session { return d.b.s }

// Finish resolves fallback titles and start times and returns the session.
func (d *decoder) Finish() *session.Session {
	d.b.finish()
	return d.b.s
}

// Finished returns the entries Finish changed after they were reported:
// compactions whose kept entry came later in the file (see jsonl.Finisher).
func (d *decoder) Finished() []jsonl.Update {
	late := d.b.late
	d.b.late = nil
	return late
}

// Line decodes one record.
func (d *decoder) Line(line []byte, n int, out []jsonl.Update) ([]jsonl.Update, error) {
	b := d.b
	v, err := d.parser.ParseBytes(line)
	if len(line) > norm.BigRecord {
		// The parser keeps a copy of the line it parsed; what the record
		// holds is read out below, so a huge record's copy goes with it.
		defer func() { d.parser = fastjson.Parser{} }()
	}
	if err != nil {
		return out, norm.FastJSONError(err)
	}
	rec, err := readRecord(v)
	if err != nil {
		return out, err
	}
	b.records++
	if rec.Type == "session" {
		if d.sawHeader {
			b.diag(n, session.SeverityWarning, "second session header ignored")
			return out, nil
		}
		d.sawHeader = true
		before := len(b.t.Entries)
		b.header(&rec, n)
		return appendNew(out, b.t, before), nil
	}
	if !d.sawHeader && b.lastID == "" {
		b.diag(n, session.SeverityWarning, "no session header before the first entry; reading as version 1")
		d.sawHeader = true
	}
	before := len(b.t.Entries)
	b.entry(&rec, n)
	return appendNew(out, b.t, before), nil
}

func appendNew(out []jsonl.Update, t *session.Thread, from int) []jsonl.Update {
	for _, e := range t.Entries[from:] {
		out = append(out, jsonl.Update{Thread: t, Entry: e})
	}
	return out
}

func (b *sessionBuilder) header(rec *entryRecord, line int) {
	if rec.Version > 0 {
		b.version = rec.Version
	}
	b.s.Version = b.version
	b.s.Agent = "pi"
	if rec.ID != nil && *rec.ID != "" {
		b.s.ID = *rec.ID
	}
	b.s.CWD = rec.CWD
	b.s.Started = isoTime(rec.Timestamp)
	if rec.Provider != "" || rec.ModelID != "" {
		// v1 headers carry the initial model.
		b.t.Entries = append(b.t.Entries, &session.Entry{
			ID: "h" + strconv.Itoa(line), Line: line, Time: b.s.Started, Kind: session.EntryModelChange,
			Type: "session", Value: joinModel(rec.Provider, rec.ModelID),
		})
		b.lastID = "h" + strconv.Itoa(line)
	}
}

// entry converts one non-header record.
func (b *sessionBuilder) entry(rec *entryRecord, line int) {
	e := &session.Entry{Line: line, Time: isoTime(rec.Timestamp), Type: rec.Type}
	if b.version >= 2 && rec.ID != nil {
		e.ID = *rec.ID
		if rec.ParentID != nil {
			e.ParentID = *rec.ParentID
		}
	} else {
		// Version 1: chain entries in file order, as pi's migration does.
		e.ID = "L" + strconv.Itoa(line)
		e.ParentID = b.lastID
	}
	if e.ID == "" {
		b.diag(line, session.SeverityWarning, "%s entry without an id", rec.Type)
		e.ID = "L" + strconv.Itoa(line)
	}
	b.byIndex[b.records-1] = e.ID
	if !b.fill(e, rec, line) {
		return
	}
	b.lastID = e.ID
	b.t.Entries = append(b.t.Entries, e)
}

// fill sets the kind-specific fields of e. It returns false when the record
// is unusable and must be skipped.
func (b *sessionBuilder) fill(e *session.Entry, rec *entryRecord, line int) bool {
	switch rec.Type {
	case "message":
		return b.fillMessage(e, rec, line)
	case "compaction":
		b.fillCompaction(e, rec, line)
	case "branch_summary":
		e.Kind, e.Target = session.EntryMessage, rec.FromID
		e.Message = &session.Message{Role: session.RoleUser, Origin: session.OriginBranchSummary, Time: e.Time,
			Blocks: []session.Block{{Type: session.BlockText, Text: rec.Summary}}}
	case "custom_message":
		blocks, err := decodeContent(rec.Content)
		if err != nil {
			b.diag(line, session.SeverityError, "custom_message: %v; entry skipped", err)
			return false
		}
		e.Kind, e.Value = session.EntryMessage, rec.CustomType
		e.Message = &session.Message{Role: session.RoleUser, Origin: session.OriginCustom, Time: e.Time, Blocks: blocks}
	case "model_change":
		e.Kind, e.Value = session.EntryModelChange, joinModel(rec.Provider, rec.ModelID)
	case "thinking_level_change":
		e.Kind, e.Value = session.EntryThinkingLevel, rec.ThinkingLevel
	case "label":
		e.Kind, e.Target = session.EntryLabel, rec.TargetID
		if rec.Label != nil {
			e.Value = *rec.Label
		}
	case "session_info":
		e.Kind = session.EntrySessionInfo
		if rec.Name != nil {
			e.Value = strings.TrimSpace(*rec.Name)
			b.s.Title = e.Value
		}
	case "custom":
		e.Kind, e.Value = session.EntryMeta, rec.CustomType
	case "":
		b.diag(line, session.SeverityError, "record without a type; line skipped")
		return false
	default:
		b.diag(line, session.SeverityWarning, "unknown entry type %q kept as metadata", rec.Type)
		e.Kind = session.EntryMeta
	}
	return true
}

// fillMessage sets e's message; it returns false when the message cannot
// be read.
func (b *sessionBuilder) fillMessage(e *session.Entry, rec *entryRecord, line int) bool {
	m, warns, err := decodeMessage(rec.Message)
	if err != nil {
		b.diag(line, session.SeverityError, "%v; entry skipped", err)
		return false
	}
	for _, w := range warns {
		b.diag(line, session.SeverityWarning, "%s", w)
	}
	if m.Time.IsZero() {
		m.Time = e.Time
	}
	e.Kind, e.Message = session.EntryMessage, m
	return true
}

// fillCompaction sets e's compaction. A version 1 record names the first
// entry kept by its index: an earlier record's, resolved now, else one
// that finish reports.
func (b *sessionBuilder) fillCompaction(e *session.Entry, rec *entryRecord, line int) {
	e.Kind = session.EntryCompaction
	e.Compaction = &session.Compaction{Summary: rec.Summary, FirstKeptID: rec.FirstKeptEntryID, TokensBefore: rec.TokensBefore}
	if rec.FirstKeptEntryID != "" || rec.FirstKeptEntryIndex == nil {
		return
	}
	if id, ok := b.byIndex[*rec.FirstKeptEntryIndex]; ok {
		e.Compaction.FirstKeptID = id
	} else {
		b.compacts = append(b.compacts, pendingCompaction{entry: e, index: *rec.FirstKeptEntryIndex, line: line})
	}
}

// finish resolves what needed the whole file: v1 compaction targets, the
// session's start time and title.
func (b *sessionBuilder) finish() {
	pending := b.compacts
	b.compacts = nil
	for _, c := range pending {
		id, ok := b.byIndex[c.index]
		if !ok {
			b.diag(c.line, session.SeverityWarning, "compaction firstKeptEntryIndex %d names no entry; treating it as keeping nothing", c.index)
			continue
		}
		c.entry.Compaction.FirstKeptID = id
		b.late = append(b.late, jsonl.Update{Thread: b.t, Entry: c.entry, Merged: true})
	}
	b.note()
	if b.s.Started.IsZero() {
		b.s.Started = b.started
	}
	if b.s.Title == "" {
		b.s.Title = b.title
	}
}

// note takes the start time (the first entry's) and the fallback title
// from the entries held, when they are not known yet.
func (b *sessionBuilder) note() {
	if !b.noted && len(b.t.Entries) > 0 {
		b.started, b.noted = b.t.Entries[0].Time, true
	}
	if b.title == "" {
		b.title = firstUserText(b.t)
	}
}

func joinModel(provider, model string) string {
	if provider == "" {
		return model
	}
	return provider + "/" + model
}

// firstUserText returns the first line of the first user message, cut to
// 80 characters, as a fallback title.
func firstUserText(t *session.Thread) string {
	for _, e := range t.Entries {
		if e.Message == nil || !e.Message.IsUser() {
			continue
		}
		for _, bl := range e.Message.Blocks {
			if bl.Type == session.BlockText && strings.TrimSpace(bl.Text) != "" {
				s, _, _ := strings.Cut(strings.TrimSpace(bl.Text), "\n")
				return norm.ClipRunes(s, 80)
			}
		}
	}
	return ""
}
