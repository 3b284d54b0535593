package opencode

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// convert builds the normalized session of one OpenCode session.
func convert(info sessionInfo, msgs []message, file string) *session.Session {
	t := &session.Thread{ID: info.ID, Kind: session.ThreadMain}
	if info.ParentID != "" {
		t.Kind, t.ParentID = session.ThreadSubagent, info.ParentID
	}
	s := &session.Session{ID: info.ID, Format: session.FormatOpenCode, Agent: "opencode", Source: file, CWD: info.Directory,
		Started: millis(info.Time.Created), Threads: []*session.Thread{t}}
	if info.Version != "" {
		s.Agent = "opencode " + info.Version
	}
	if !defaultTitle(info.Title) {
		s.Title, t.Title = norm.Short(info.Title, 80), norm.Short(info.Title, 80)
	}
	c := &converter{t: t}
	for i := range msgs {
		c.message(&msgs[i])
	}
	norm.Finish(s)
	return s
}

// defaultTitle reports OpenCode's placeholder title, given before one is
// generated ("New session - 2026-03-22T10:00:00.000Z").
func defaultTitle(title string) bool {
	return title == "" || strings.HasPrefix(title, "New session - ") || strings.HasPrefix(title, "Child session - ")
}

// converter appends one session's entries.
type converter struct {
	t      *session.Thread
	lastID string
}

// message converts one message with its parts.
func (c *converter) message(m *message) {
	ts := millis(m.info.Time.Created)
	switch {
	case m.info.Role == "user":
		c.add(m.info.ID, m.line, ts, "user", &session.Message{Role: session.RoleUser, Time: ts, Blocks: userBlocks(m.parts)})
	case m.info.Role == "assistant" && isTrue(m.info.Summary):
		e := c.add(m.info.ID, m.line, ts, "summary", nil)
		e.Kind, e.Compaction = session.EntryCompaction, &session.Compaction{Summary: text(m.parts)}
	case m.info.Role == "assistant":
		c.steps(m, ts)
	default:
		e := c.add(m.info.ID, m.line, ts, m.info.Role, nil)
		e.Value = m.info.Role
	}
}

// steps converts an assistant message, one model call per step.
func (c *converter) steps(m *message, ts time.Time) {
	st := &stepper{c: c, m: m, ts: ts, model: m.info.ModelID, provider: m.info.Provider}
	if mm := m.info.Model; mm != nil && st.model == "" {
		st.model, st.provider = mm.ModelID, mm.ProviderID
	}
	for _, p := range m.parts {
		switch p.Type {
		case "step-start":
			st.close(nil, nil)
			st.open()
			continue
		case "step-finish":
			if st.cur == nil {
				st.open()
			}
			st.close(p.Tokens, p.Cost)
			continue
		}
		if st.cur == nil {
			st.open()
		}
		st.part(&p)
	}
	if st.cur != nil {
		var u *tokens
		if st.step == 0 {
			u = m.info.Tokens // no steps: the message is one call
		}
		st.close(u, m.info.Cost)
	}
	if m.info.Error != nil && st.step > 0 {
		c.t.Entries[len(c.t.Entries)-1].Message.Error = m.info.Error.Name
	}
}

// stepper turns the parts of one assistant message into one assistant
// message per model call (step), each followed by its tools' results.
type stepper struct {
	c               *converter
	m               *message
	ts              time.Time
	model, provider string

	cur     *session.Message // the step being read; nil between steps
	results []session.Block  // its tools' results
	step    int              // steps added
}

// open begins a step.
func (st *stepper) open() {
	st.cur = &session.Message{Role: session.RoleAssistant, ID: st.m.info.ID, Model: st.model, Provider: st.provider, Time: st.ts}
	st.results = nil
}

// part adds a text, reasoning or tool part to the step.
func (st *stepper) part(p *partInfo) {
	switch p.Type {
	case "text":
		if strings.TrimSpace(p.Text) != "" {
			st.cur.Blocks = append(st.cur.Blocks, session.Block{Type: session.BlockText, Text: p.Text})
		}
	case "reasoning":
		if strings.TrimSpace(p.Text) != "" {
			st.cur.Blocks = append(st.cur.Blocks, session.Block{Type: session.BlockThinking, Text: p.Text})
		}
	case "tool":
		call, res := toolBlocks(p)
		st.cur.Blocks = append(st.cur.Blocks, call)
		if res != nil {
			st.results = append(st.results, *res)
		}
	}
}

// close adds the step, with its usage when u is not nil, and its tools'
// results after it.
func (st *stepper) close(u *tokens, cost json.RawMessage) {
	if st.cur == nil {
		return
	}
	if u != nil {
		st.cur.Usage = usageOf(u, cost)
	}
	id := st.m.info.ID
	if st.step > 0 {
		id += "#" + strconv.Itoa(st.step)
	}
	st.c.add(id, st.m.line, st.ts, "assistant", st.cur)
	if len(st.results) > 0 {
		st.c.add(id+"-results", st.m.line, st.ts, "tool_results", &session.Message{Role: session.RoleTool, Time: st.ts, Blocks: st.results})
	}
	st.step++
	st.cur = nil
}

// toolBlocks returns a tool part's call and, once it ran, its result.
func toolBlocks(p *partInfo) (session.Block, *session.Block) {
	call := session.Block{Type: session.BlockToolCall, ToolCallID: p.CallID, ToolName: p.Tool}
	if st := p.State; st != nil {
		call.Arguments = norm.NonNull(st.Input)
		switch st.Status {
		case "completed", "success":
			return call, &session.Block{Type: session.BlockToolResult, ToolCallID: p.CallID, ToolName: p.Tool, Content: norm.Text(st.Output)}
		case "error":
			return call, &session.Block{Type: session.BlockToolResult, ToolCallID: p.CallID, ToolName: p.Tool, Content: norm.Text(st.Error), IsError: true}
		}
	}
	if call.Arguments == nil {
		call.Arguments = json.RawMessage("{}")
	}
	return call, nil
}

// userBlocks converts a user message's parts.
func userBlocks(parts []partInfo) []session.Block {
	var out []session.Block
	for _, p := range parts {
		switch p.Type {
		case "text":
			if strings.TrimSpace(p.Text) != "" {
				out = append(out, session.Block{Type: session.BlockText, Text: p.Text})
			}
		case "file":
			if strings.HasPrefix(p.MIME, "image/") {
				out = append(out, session.Block{Type: session.BlockImage, MIME: p.MIME})
			} else {
				out = append(out, session.Block{Type: session.BlockText, Text: "[file " + p.Filename + "]"})
			}
		}
	}
	return out
}

// usageOf normalizes OpenCode's usage: its input excludes the cache, and
// its output the reasoning.
func usageOf(u *tokens, cost json.RawMessage) *session.Usage {
	out := &session.Usage{Input: u.Input, CacheRead: u.Cache.Read, CacheWrite: u.Cache.Write, Output: u.Output + u.Reasoning, Reasoning: u.Reasoning}
	var c float64
	if json.Unmarshal(cost, &c) == nil {
		out.Cost = c
	}
	return out
}

// text joins the text parts.
func text(parts []partInfo) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" && p.Text != "" {
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// add appends an entry chained to the previous one; a nil message makes a
// metadata entry.
func (c *converter) add(id string, line int, ts time.Time, typ string, m *session.Message) *session.Entry {
	e := &session.Entry{ID: id, ParentID: c.lastID, Line: line, Time: ts, Kind: session.EntryMessage, Type: typ, Message: m}
	if m == nil {
		e.Kind = session.EntryMeta
	}
	c.lastID = id
	c.t.Entries = append(c.t.Entries, e)
	return e
}

func isTrue(raw json.RawMessage) bool { return strings.TrimSpace(string(raw)) == "true" }

func millis(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}
