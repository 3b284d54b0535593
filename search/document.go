package search

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"ctxscope/engine/session"
)

// Document kinds.
const (
	KindMessage    = "message"     // the text of a user or assistant message
	KindThinking   = "thinking"    // a thinking block
	KindToolCall   = "tool_call"   // a tool call: the tool's name and arguments
	KindToolResult = "tool_result" // a tool result's text
	KindToolSchema = "tool_schema" // a tool's schema as a request carried it
	KindInjected   = "injected"    // context the agent injected into a user message
	KindCompaction = "compaction"  // a compaction's summary
	KindEpisode    = "episode"     // an episode: name, type and description
	KindPassage    = "passage"     // a memory passage
	KindTriple     = "triple"      // a memory relation: subject, predicate, object
	KindExperience = "experience"  // a memory experience item
)

// Doc is one searchable document.
type Doc struct {
	ID      string
	Kind    string
	Session string // session key, for session documents
	Thread  string
	Entry   string // entry id to jump to
	Line    int    // line in the source file
	Role    string
	Tool    string
	Episode string
	Speaker string
	Set     string // memory set, for memory documents
	// DialogSession is the conversation session a memory document comes
	// from ("3" for LoCoMo's session_3), "" when unknown.
	DialogSession string
	Time          time.Time
	Text          string
}

// prose reports the kinds whose text is prose, which get the English
// field besides the code field. Tool calls and results are code, paths
// and program output: English stemming finds nothing more in them and
// would double their indexing cost.
func prose(kind string) bool {
	return kind != KindToolCall && kind != KindToolResult && kind != KindToolSchema
}

// fields returns the document as Bleve indexes it, leaving out empty
// fields.
func (d *Doc) fields() map[string]any {
	m := map[string]any{FieldKind: d.Kind, FieldCode: d.Text, FieldContent: d.Text}
	if prose(d.Kind) {
		m[FieldText] = d.Text
	}
	for k, v := range map[string]string{FieldSession: d.Session, FieldThread: d.Thread, FieldEntry: d.Entry, FieldRole: d.Role,
		FieldTool: d.Tool, FieldEpisode: d.Episode, FieldSpeaker: d.Speaker, FieldSet: d.Set, FieldDialogSession: d.DialogSession} {
		if v != "" {
			m[k] = v
		}
	}
	if d.Line > 0 {
		m[FieldLine] = float64(d.Line)
	}
	if !d.Time.IsZero() {
		m[FieldTime] = d.Time.UTC().Format(time.RFC3339)
	}
	return m
}

// entryDocID names the document of block b of entry e in thread t of a
// session; b is -1 for an entry-level document.
func entryDocID(key string, t, e, b int) string {
	return key + "#" + strconv.Itoa(t) + "/" + strconv.Itoa(e) + "/" + strconv.Itoa(b)
}

// maxDocText bounds the text of one document. A longer text (a tool
// output of many megabytes) is indexed as several documents of the same
// block, so that analysing one document never needs memory in proportion
// to the largest block of a session.
const maxDocText = 256 << 10

// maxDocParts bounds the documents of one block: text beyond
// maxDocParts × maxDocText (16 MiB) is not indexed.
const maxDocParts = 64

// EntryDocs returns the documents of one entry at position ord of thread
// number t, whose id is thread: one for the text of a message, and one for
// each thinking block, tool call, tool result, tool schema and block of
// injected context. A block's text longer than 256 KiB makes
// several documents, the first under the block's own id and each later
// one under that id with "~part" appended.
func EntryDocs(key string, t int, thread string, ord int, e *session.Entry) []Doc {
	base := Doc{Session: key, Thread: thread, Entry: e.ID, Line: e.Line, Time: e.Time}
	var out []Doc
	add := func(b int, kind, text string, edit func(*Doc)) {
		if strings.TrimSpace(text) == "" {
			return
		}
		for part, chunk := range splitText(text, maxDocText, maxDocParts) {
			d := base
			d.ID, d.Kind, d.Text = entryDocID(key, t, ord, b), kind, chunk
			if part > 0 {
				d.ID += "~" + strconv.Itoa(part)
			}
			if edit != nil {
				edit(&d)
			}
			out = append(out, d)
		}
	}
	if c := e.Compaction; c != nil {
		add(-1, KindCompaction, c.Summary, nil)
	}
	m := e.Message
	if m == nil {
		return out
	}
	base.Role = string(m.Role)
	var text []string
	first := -1
	for i := range m.Blocks {
		b := &m.Blocks[i]
		switch b.Type {
		case session.BlockText:
			switch session.SectionOf(m, b) {
			case session.SectionToolSchema:
				add(i, KindToolSchema, b.Text, func(d *Doc) { d.Tool = b.ToolName })
				continue
			case session.SectionInjected:
				add(i, KindInjected, b.Text, nil)
				continue
			}
			if first < 0 {
				first = i
			}
			text = append(text, b.Text)
		case session.BlockThinking:
			if !b.Redacted {
				add(i, KindThinking, b.Text, nil)
			}
		case session.BlockToolCall:
			add(i, KindToolCall, b.ToolName+"\n"+flattenJSON(b.Arguments), func(d *Doc) { d.Tool = b.ToolName })
		case session.BlockToolResult:
			add(i, KindToolResult, b.ResultText(), func(d *Doc) { d.Tool = b.ToolName })
		}
	}
	if first >= 0 {
		add(first, KindMessage, strings.Join(text, "\n"), nil)
	}
	return out
}

// splitText cuts text into at most parts pieces of at most size bytes,
// each ending at a line break where one falls in its second half and
// never inside a UTF-8 sequence. Text beyond parts pieces is dropped.
func splitText(text string, size, parts int) []string {
	var out []string
	for len(text) > 0 && len(out) < parts {
		if len(text) <= size {
			return append(out, text)
		}
		cut := size
		if nl := strings.LastIndexByte(text[size/2:size], '\n'); nl >= 0 {
			cut = size/2 + nl + 1
		} else {
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
		}
		out = append(out, text[:cut])
		text = text[cut:]
	}
	return out
}

// flattenJSON returns the string and number values of a JSON value, one
// per line, in document order, without the object keys; text that is not
// valid JSON is returned as it is.
func flattenJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	if !json.Valid(raw) {
		return string(raw)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var sb strings.Builder
	var inObject []bool // one per open container: true for objects
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return sb.String()
		}
		switch x := tok.(type) {
		case json.Delim:
			if x == '{' || x == '[' {
				inObject = append(inObject, x == '{')
				expectKey = x == '{'
				continue
			}
			inObject = inObject[:len(inObject)-1]
			expectKey = len(inObject) > 0 && inObject[len(inObject)-1] // the container was a value
			continue
		case string:
			if !expectKey {
				sb.WriteString(x)
				sb.WriteByte('\n')
			}
		case json.Number:
			sb.WriteString(x.String())
			sb.WriteByte('\n')
		}
		if len(inObject) > 0 && inObject[len(inObject)-1] {
			expectKey = !expectKey // in an object, keys and values alternate
		}
	}
}

// EpisodeDocs returns the documents of a session's episodes.
func EpisodeDocs(key string, eps []Episode) []Doc {
	out := make([]Doc, 0, len(eps))
	for i, ep := range eps {
		out = append(out, Doc{
			ID: key + "#ep/" + strconv.Itoa(i), Kind: KindEpisode, Session: key, Thread: ep.Thread, Entry: ep.StartEntry,
			Episode: ep.Name, Text: strings.Join([]string{ep.Name, ep.Kind, ep.Description}, "\n"),
		})
	}
	return out
}
