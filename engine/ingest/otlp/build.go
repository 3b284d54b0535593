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

// builder assembles one conversation's session, span by span: the
// messages each model call adds (raw), and, on each finish, the entries
// with the tool results that only execute_tool spans recorded filled in
// (see fill.go). Building a conversation at once and building it as its
// spans arrive run the same code.
type builder struct {
	s      *session.Session // the session's fields and the diagnostics of spans so far; no threads
	file   string
	raw    []*session.Entry   // the model calls' messages, in order
	sent   []*session.Message // the conversation as the last call saw it
	system string             // the system instructions last sent
	next   int
	// title is the agent's name, the first a span gave.
	title string
	// bare counts the model calls that recorded no content, the first at
	// bareLine.
	bare, bareLine int
	// said are the problems of the spans said so far.
	said map[string]bool
	fills
	firsts firsts
}

func newBuilder(key, file string) *builder {
	return &builder{s: &session.Session{ID: key, Format: session.FormatOTLP, Source: file}, file: file, said: map[string]bool{}, fills: newFills(),
		firsts: firsts{timeAt: -1, titleAt: -1}}
}

// buildSession turns one conversation's spans into a session.
func buildSession(spans []*span, file string) *session.Session {
	b := newBuilder(conversationKey(spans), file)
	for _, sp := range spans {
		b.span(sp)
	}
	s, _ := b.finish()
	return s
}

// span reads one span of the conversation, the spans coming in start
// order.
func (b *builder) span(sp *span) {
	if b.s.Agent == "" {
		b.s.Agent = sp.service
	}
	if name := attrString(sp.attrs, attrAgentName); name != "" && b.title == "" {
		b.title = name
	}
	switch op := attrString(sp.attrs, attrOperation); {
	case op == "execute_tool":
		if id := attrString(sp.attrs, attrToolCallID); id != "" {
			b.toolRun(id, sp)
		}
	case modelCalls[op] || op == "":
		// A span that names no operation is a model call when it
		// carries a call's messages.
		if c, problems := readCall(sp); op != "" || c.found {
			b.modelCall(sp, c, problems)
		}
	}
}

// finish returns the session the spans so far make, and how many of its
// leading entries are those the previous finish returned, unchanged. The
// session shares its entries with the builder: it holds until the next
// span.
func (b *builder) finish() (*session.Session, int) {
	entries, kept := b.fill(b.raw)
	s := *b.s
	s.Diagnostics = append([]session.Diagnostic(nil), b.s.Diagnostics...)
	main := &session.Thread{ID: "main", Kind: session.ThreadMain, Entries: entries}
	s.Threads = []*session.Thread{main}
	if b.bare > 0 {
		norm.Diag(&s, b.file, b.bareLine, session.SeverityWarning, "%d model calls record no message content, only their usage: "+
			"the instrumentation's content capture is off (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT)", b.bare)
	}
	// What norm.Finish derives, from the entries that changed only.
	b.firsts.update(entries, kept)
	s.Title = b.title
	switch {
	case s.Title != "" && b.firsts.title != "":
		s.Title += ": " + b.firsts.title
	case s.Title == "":
		s.Title = b.firsts.title
	}
	s.Started = b.firsts.started
	return &s, kept
}

// firsts keeps what a session takes from the first of its entries that
// have it, the start time and the first user text (see norm.Finish), as
// the entries change from a position on: how far they were looked for,
// and where they were found (-1 for not yet).
type firsts struct {
	looked, timeAt, titleAt int
	started                 time.Time
	title                   string
}

// update looks on through entries, of which the first kept are those it
// saw before.
func (f *firsts) update(entries []*session.Entry, kept int) {
	if f.looked > kept {
		f.looked = kept
		if f.timeAt >= kept {
			f.timeAt, f.started = -1, time.Time{}
		}
		if f.titleAt >= kept {
			f.titleAt, f.title = -1, ""
		}
	}
	for i := f.looked; i < len(entries) && (f.timeAt < 0 || f.titleAt < 0); i++ {
		if f.timeAt < 0 && !entries[i].Time.IsZero() {
			f.timeAt, f.started = i, entries[i].Time
		}
		if f.titleAt < 0 {
			if t := norm.Title(&session.Thread{Entries: entries[i : i+1]}); t != "" {
				f.titleAt, f.title = i, t
			}
		}
	}
	f.looked = len(entries)
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
	if n := len(b.raw); n > 0 {
		parent = b.raw[n-1].ID
	}
	m.Time = t
	b.raw = append(b.raw, &session.Entry{ID: id, ParentID: parent, Line: sp.line, Time: t, Kind: session.EntryMessage, Type: sp.name, Message: m})
	b.message(len(b.raw)-1, m)
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
