package claude

import (
	"strconv"
	"strings"

	"github.com/valyala/fastjson"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/session"
)

// Claude Code 2.1.33x logs what it sends with each request, beside the
// transcript: api-request-shape (the system blocks and tool schemas,
// keyed by a hash), api-request-blob (each user-side message exactly as
// sent, system reminders included) and api-request (how the request is
// assembled from them). The transcript's own user records differ from
// what was sent: a Read result lacks the reminder appended to it, a Bash
// result is trimmed, the first prompt lacks the environment and skill
// reminders sent with it. The decoder takes the sent form:
//
//   - a blob's tool results replace the content of the transcript's
//     results of the same calls;
//   - a blob of user text replaces the transcript's user message whose
//     text it holds;
//   - a thread's first shape becomes a system message before its first
//     response: the system blocks, then one block per tool schema, which
//     names its tool (a [session.SectionToolSchema]).
//
// Blobs follow the records they stand for within a few lines; the records
// are looked up among those of the last wireWindow lines.
const wireWindow = 512

// wireState is what the decoder remembers to apply the request records.
type wireState struct {
	results map[string]recent // tool-result entries by call id
	prompts []recent          // user text entries, oldest first
	shaped  map[*session.Thread]bool
	// lastTree is the latest entry of a record of the transcript's tree
	// (one with a uuid): where the path to the next response ends.
	lastTree placed
}

// recent is an entry placed at a line.
type recent struct {
	placed
	line int
}

// noteUserEntry remembers a user-side entry that a later blob may stand
// for.
func (d *decoder) noteUserEntry(t *session.Thread, e *session.Entry, n int) {
	if e.Message == nil || (e.Message.Role != session.RoleUser && e.Message.Role != session.RoleTool) {
		return
	}
	w := &d.wire
	if w.results == nil {
		w.results = map[string]recent{}
	}
	for _, b := range e.Message.Blocks {
		if b.Type == session.BlockToolResult && b.ToolCallID != "" {
			w.results[b.ToolCallID] = recent{placed{t, e}, n}
		}
	}
	if e.Message.Role == session.RoleUser {
		w.prompts = append(w.prompts, recent{placed{t, e}, n})
	}
	d.pruneWire(n)
}

// pruneWire forgets entries older than wireWindow lines.
func (d *decoder) pruneWire(n int) {
	w := &d.wire
	if n%wireWindow != 0 {
		return
	}
	for id, r := range w.results {
		if r.line < n-wireWindow {
			delete(w.results, id)
		}
	}
	keep := w.prompts[:0]
	for _, r := range w.prompts {
		if r.line >= n-wireWindow {
			keep = append(keep, r)
		}
	}
	w.prompts = keep
}

// blob applies an api-request-blob: the sent form of a user-side message.
func (d *decoder) blob(v *fastjson.Value, n int, out []jsonl.Update) []jsonl.Update {
	m := v.Get("message")
	if m == nil || m.Type() != fastjson.TypeObject {
		return out
	}
	blocks, _, err := decodeContent(m.Get("content"))
	if err != nil {
		norm.Diag(d.s, d.file, n, session.SeverityWarning, "api-request-blob: %v; the transcript's form is kept", err)
		return out
	}
	hasResults := false
	for _, b := range blocks {
		if b.Type != session.BlockToolResult {
			continue
		}
		hasResults = true
		r, ok := d.wire.results[b.ToolCallID]
		if !ok {
			continue
		}
		for i := range r.e.Message.Blocks {
			if tb := &r.e.Message.Blocks[i]; tb.Type == session.BlockToolResult && tb.ToolCallID == b.ToolCallID {
				tb.Content, tb.IsError = b.Content, b.IsError
			}
		}
		out = append(out, jsonl.Update{Thread: r.t, Entry: r.e, Merged: true})
	}
	if hasResults {
		return out
	}
	for i := len(d.wire.prompts) - 1; i >= 0; i-- {
		r := d.wire.prompts[i]
		if holdsText(blocks, r.e.Message.Blocks) {
			r.e.Message.Blocks = blocks
			d.wire.prompts = append(d.wire.prompts[:i], d.wire.prompts[i+1:]...)
			return append(out, jsonl.Update{Thread: r.t, Entry: r.e, Merged: true})
		}
	}
	return out
}

// holdsText reports whether the text of every text block of want is among
// the text blocks of sent.
func holdsText(sent, want []session.Block) bool {
	found := 0
	for _, w := range want {
		if w.Type != session.BlockText {
			continue
		}
		for _, s := range sent {
			if s.Type == session.BlockText && strings.TrimSpace(s.Text) == strings.TrimSpace(w.Text) {
				found++
				break
			}
		}
	}
	return found > 0
}

// shape applies an api-request-shape: a thread's first becomes its system
// message, placed as the thread's entry at this line (before the first
// response, which follows the shape).
func (d *decoder) shape(v *fastjson.Value, rec *record, n int, out []jsonl.Update) []jsonl.Update {
	t := d.main
	if d.wire.shaped == nil {
		d.wire.shaped = map[*session.Thread]bool{}
	}
	if d.wire.shaped[t] {
		return out
	}
	s := v.Get("shape")
	if s == nil || s.Type() != fastjson.TypeObject {
		return out
	}
	var blocks []session.Block
	for _, b := range s.GetArray("system") {
		if text := str(b, "text"); text != "" {
			blocks = append(blocks, session.Block{Type: session.BlockText, Text: text})
		}
	}
	for _, tool := range s.GetArray("tools") {
		blocks = append(blocks, session.Block{Type: session.BlockText, Text: toolSchemaText(tool), ToolName: schemaName(tool)})
	}
	if len(blocks) == 0 {
		return out
	}
	root := pathRoot(t, d.wire.lastTree)
	if root == nil {
		norm.Diag(d.s, d.file, n, session.SeverityWarning, "api-request-shape: no transcript entry to place the system prompt before; not shown")
		return out
	}
	d.wire.shaped[t] = true
	e := &session.Entry{ID: "S" + strconv.Itoa(n), Line: n, Time: norm.Time(rec.Timestamp), Kind: session.EntryMessage, Type: "api-request-shape",
		Message: &session.Message{Role: session.RoleSystem, Origin: session.OriginRequestShape, Blocks: blocks, Time: norm.Time(rec.Timestamp)}}
	root.ParentID = e.ID
	d.appendEntry(t, e)
	return append(out, jsonl.Update{Thread: t, Entry: root, Merged: true}, jsonl.Update{Thread: t, Entry: e})
}

// pathRoot is the first entry of the path to last, among the entries t
// still holds, when it has no parent: where a system prompt goes. It is
// nil when the path's start was already released.
func pathRoot(t *session.Thread, last placed) *session.Entry {
	if last.t != t || last.e == nil {
		return nil
	}
	byID := make(map[string]*session.Entry, len(t.Entries))
	for _, e := range t.Entries {
		byID[e.ID] = e
	}
	e := last.e
	for seen := 0; e.ParentID != "" && seen < len(t.Entries); seen++ {
		p, ok := byID[e.ParentID]
		if !ok {
			return nil
		}
		e = p
	}
	if e.ParentID != "" {
		return nil
	}
	return e
}

// schemaName is the name of the tool a schema describes, or a stand-in
// that still marks the block as a schema.
func schemaName(tool *fastjson.Value) string {
	if name := str(tool, "name"); name != "" {
		return name
	}
	return "(unnamed tool)"
}

// toolSchemaText is a tool schema as the request carries it: its JSON
// object (name, description, input schema), compact.
func toolSchemaText(tool *fastjson.Value) string {
	return string(tool.MarshalTo(nil))
}
