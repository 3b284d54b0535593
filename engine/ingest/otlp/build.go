package otlp

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// Operations of gen_ai.operation.name that are a model call.
var modelCalls = map[string]bool{"chat": true, "text_completion": true, "generate_content": true, "completion": true}

// conversations groups the batch's spans into conversations, each in
// start order, the conversations ordered by their first span.
func (b *batch) conversations() [][]*span {
	byID := map[string]*span{}
	for _, s := range b.spans {
		byID[s.id] = s
	}
	conv := map[*span]string{}
	var keyOf func(s *span, depth int) string
	keyOf = func(s *span, depth int) string {
		if k, ok := conv[s]; ok {
			return k
		}
		k := ownConversation(s.attrs)
		if k == "" && s.parent != "" && depth < 64 {
			if p := byID[s.parent]; p != nil {
				k = keyOf(p, depth+1)
			}
		}
		conv[s] = k
		return k
	}
	// A trace whose spans name no conversation is one; a trace where some
	// do lends its first one to the rest.
	traceConv := map[string]string{}
	for _, s := range b.spans {
		if k := keyOf(s, 0); k != "" && traceConv[s.traceID] == "" {
			traceConv[s.traceID] = k
		}
	}
	groups := map[string][]*span{}
	for _, s := range b.spans {
		k := keyOf(s, 0)
		if k == "" {
			k = traceConv[s.traceID]
		}
		if k == "" {
			k = s.traceID
		}
		groups[k] = append(groups[k], s)
	}
	out := make([][]*span, 0, len(groups))
	for _, g := range groups {
		sort.SliceStable(g, func(i, j int) bool {
			if !g[i].start.Equal(g[j].start) {
				return g[i].start.Before(g[j].start)
			}
			return g[i].end.Before(g[j].end)
		})
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i][0].start.Equal(out[j][0].start) {
			return out[i][0].start.Before(out[j][0].start)
		}
		return conversationKey(out[i]) < conversationKey(out[j])
	})
	return out
}

// conversationKey names a conversation: its gen_ai.conversation.id or
// session.id, else its first trace's id.
func conversationKey(spans []*span) string {
	for _, s := range spans {
		if k := ownConversation(s.attrs); k != "" {
			return k
		}
	}
	return spans[0].traceID
}

// ownConversation is the conversation a span's attributes name:
// gen_ai.conversation.id, else session.id, else the one the receiver
// filed it under; "" for none.
func ownConversation(attrs map[string]any) string {
	for _, key := range []string{attrConversation, attrSessionID, attrSpooled} {
		if k := attrString(attrs, key); k != "" {
			return k
		}
	}
	return ""
}

// builder assembles one conversation's session.
type builder struct {
	s       *session.Session
	main    *session.Thread
	file    string
	sent    []*session.Message // the conversation as the last call saw it
	system  string             // the system instructions last sent
	results map[string]*span   // execute_tool spans by call id
	next    int
	// bare counts the model calls that recorded no content, the first at
	// bareLine.
	bare, bareLine int
	// said are the problems of the spans said so far.
	said map[string]bool
}

// buildSession turns one conversation's spans into a session.
func buildSession(spans []*span, file string) *session.Session {
	key := conversationKey(spans)
	s := &session.Session{ID: key, Format: session.FormatOTLP, Source: file}
	main := &session.Thread{ID: "main", Kind: session.ThreadMain}
	s.Threads = []*session.Thread{main}
	b := &builder{s: s, main: main, file: file, results: map[string]*span{}, said: map[string]bool{}}
	for _, sp := range spans {
		if s.Agent == "" {
			s.Agent = sp.service
		}
		if name := attrString(sp.attrs, attrAgentName); name != "" && s.Title == "" {
			s.Title = name
		}
		switch op := attrString(sp.attrs, attrOperation); {
		case op == "execute_tool":
			if id := attrString(sp.attrs, attrToolCallID); id != "" {
				b.results[id] = sp
			}
		case modelCalls[op] || op == "":
			// A span that names no operation is a model call when it
			// carries a call's messages.
			if c, problems := readCall(sp); op != "" || c.found {
				b.modelCall(sp, c, problems)
			}
		}
	}
	b.fillToolResults()
	if b.bare > 0 {
		norm.Diag(s, file, b.bareLine, session.SeverityWarning, "%d model calls record no message content, only their usage: "+
			"the instrumentation's content capture is off (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT)", b.bare)
	}
	if s.Title != "" {
		if t := norm.Title(main); t != "" {
			s.Title = s.Title + ": " + t
		}
	}
	norm.Finish(s)
	return s
}

// modelCall adds what one model call sent beyond the conversation so far,
// then its answer with the call's usage. c and problems are what readCall
// read of the span.
func (b *builder) modelCall(sp *span, c call, problems []string) {
	for _, p := range problems {
		if b.said[p] {
			continue // each call repeats the history: said once
		}
		b.said[p] = true
		norm.Diag(b.s, b.file, sp.line, session.SeverityWarning, "span %s (%s): %s", sp.id, sp.name, p)
	}
	if sys := blocksText(c.system); sys != "" && sys != b.system {
		b.add(&session.Message{Role: session.RoleSystem, Blocks: c.system}, sp.start, sp)
		b.system = sys
	}
	from := commonPrefix(b.sent, c.input)
	if from < len(b.sent) && from < len(c.input) {
		norm.Diag(b.s, b.file, sp.line, session.SeverityWarning, "span %s: the call's input departs from the conversation at message %d; the rest is added as sent", sp.id, from+1)
	}
	for _, m := range c.input[from:] {
		b.add(m, sp.start, sp)
	}
	outputs := c.output
	if len(outputs) == 0 {
		// A call without recorded content still made a request: an empty
		// answer keeps its usage and model.
		outputs = []*session.Message{{Role: session.RoleAssistant, Blocks: []session.Block{}}}
		if !c.found {
			if b.bare == 0 {
				b.bareLine = sp.line
			}
			b.bare++
		}
	}
	for i, m := range outputs {
		m.Provider = attrString(sp.attrs, attrProvider)
		if m.Provider == "" {
			m.Provider = attrString(sp.attrs, attrSystem)
		}
		m.Model = attrString(sp.attrs, attrResponseModel)
		if m.Model == "" {
			m.Model = attrString(sp.attrs, attrRequestModel)
		}
		m.ID = attrString(sp.attrs, attrResponseID)
		if m.StopReason == "" {
			m.StopReason = firstString(sp.attrs, attrFinishReasons)
		}
		m.Error = attrString(sp.attrs, attrErrorType)
		if i == 0 {
			m.Usage = usageOf(sp.attrs)
		}
		b.add(m, sp.end, sp)
	}
	// The next call repeats this one's input and answer.
	if len(c.input) > 0 {
		b.sent = append(append([]*session.Message{}, c.input...), c.output...)
	} else {
		b.sent = append(b.sent, c.output...)
	}
}

// add appends a message entry.
func (b *builder) add(m *session.Message, t time.Time, sp *span) {
	b.next++
	id := sp.id + "/" + strconv.Itoa(b.next)
	parent := ""
	if n := len(b.main.Entries); n > 0 {
		parent = b.main.Entries[n-1].ID
	}
	m.Time = t
	b.main.Entries = append(b.main.Entries, &session.Entry{ID: id, ParentID: parent, Line: sp.line, Time: t, Kind: session.EntryMessage, Type: sp.name, Message: m})
}

// fillToolResults gives each tool call that no later call sent the result
// of its execute_tool span, right after the call's message.
func (b *builder) fillToolResults() {
	answered := map[string]bool{}
	for _, e := range b.main.Entries {
		for _, blk := range e.Message.Blocks {
			if blk.Type == session.BlockToolResult {
				answered[blk.ToolCallID] = true
			}
		}
	}
	var out []*session.Entry
	for _, e := range b.main.Entries {
		out = append(out, e)
		var results []session.Block
		for _, blk := range e.Message.Blocks {
			sp := b.results[blk.ToolCallID]
			if blk.Type != session.BlockToolCall || answered[blk.ToolCallID] || sp == nil {
				continue
			}
			if _, ok := sp.attrs[attrToolResult]; !ok {
				continue
			}
			results = append(results, session.Block{Type: session.BlockToolResult, ToolCallID: blk.ToolCallID, ToolName: blk.ToolName,
				IsError: attrString(sp.attrs, attrErrorType) != "", Content: []session.Block{{Type: session.BlockText, Text: attrString(sp.attrs, attrToolResult)}}})
			answered[blk.ToolCallID] = true
		}
		if len(results) > 0 {
			sp := b.results[results[0].ToolCallID]
			out = append(out, &session.Entry{ID: sp.id + "/result", ParentID: e.ID, Line: sp.line, Time: sp.end, Kind: session.EntryMessage,
				Type: sp.name, Message: &session.Message{Role: session.RoleTool, Blocks: results, Time: sp.end}})
		}
	}
	// Parents follow the order entries now have.
	for i := 1; i < len(out); i++ {
		out[i].ParentID = out[i-1].ID
	}
	b.main.Entries = out
}

// usageOf reads a call's token usage; nil when it reported none.
func usageOf(attrs map[string]any) *session.Usage {
	in, okIn := attrInt(attrs, attrInputTokens)
	if !okIn {
		in, okIn = attrInt(attrs, attrPromptTokens)
	}
	out, okOut := attrInt(attrs, attrOutputTokens)
	if !okOut {
		out, okOut = attrInt(attrs, attrCompletionTokens)
	}
	if !okIn && !okOut {
		return nil
	}
	u := &session.Usage{Output: out}
	u.CacheRead = firstInt(attrs, cacheReadAttrs)
	u.CacheWrite = firstInt(attrs, cacheWriteAttrs)
	u.Reasoning, _ = attrInt(attrs, attrReasoning)
	// OpenTelemetry's input count includes the cached tokens.
	u.Input = max(0, in-u.CacheRead-u.CacheWrite)
	return u
}

// cacheReadAttrs and cacheWriteAttrs name the cached tokens of a call's
// input, as the conventions name them and as clients have: the Anthropic
// SDK writes cache_write, OpenLLMetry the older underscored names.
var (
	cacheReadAttrs  = []string{attrCacheRead, "gen_ai.usage.cache_read_input_tokens"}
	cacheWriteAttrs = []string{attrCacheWrite, "gen_ai.usage.cache_write.input_tokens", "gen_ai.usage.cache_creation_input_tokens"}
)

// firstInt is the first of the attributes names that attrs has, 0 for
// none.
func firstInt(attrs map[string]any, names []string) int {
	for _, n := range names {
		if v, ok := attrInt(attrs, n); ok {
			return v
		}
	}
	return 0
}

// commonPrefix returns how many messages a and b share from the start.
func commonPrefix(a, b []*session.Message) int {
	n := 0
	for n < len(a) && n < len(b) && sameMessage(a[n], b[n]) {
		n++
	}
	return n
}

// sameMessage compares what a conversation repeats of a message: its role
// and content.
func sameMessage(a, b *session.Message) bool {
	if a.Role != b.Role || len(a.Blocks) != len(b.Blocks) {
		return false
	}
	for i := range a.Blocks {
		x, y := a.Blocks[i], b.Blocks[i]
		if x.Type != y.Type || x.Text != y.Text || x.ToolCallID != y.ToolCallID || blocksText(x.Content) != blocksText(y.Content) {
			return false
		}
	}
	return true
}

func blocksText(bs []session.Block) string {
	var out string
	for _, b := range bs {
		out += fmt.Sprintf("%s\x00%s\x00", b.Type, b.Text)
	}
	return out
}
