package otlp

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// Some agents export their own telemetry rather than the GenAI
// conventions: log events, in no span, that name their conversation.
// Codex's (codex.go) and Claude Code's (claudecode.go) are read into
// sessions of what they record, each saying what it lacks.

// agentConversation names one agent's conversation: the agent ("codex",
// "claude-code") and the conversation's id.
type agentConversation struct{ agent, id string }

// agentEvents are an agent's events of one conversation, with the service
// that sent them.
type agentEvents struct {
	service string
	events  []event
}

// agentEvent reports whether a log record is one of an agent's own events
// a session is made of: the agent, the event's name and the
// conversation it names; "" for another record, or one that names no
// conversation.
func agentEvent(name string, attrs map[string]any, body any) (agent, kind, conv string) {
	switch {
	case name == evCodexPrompt || name == evCodexSSE || name == evCodexDecision || name == evCodexTool:
		agent, kind, conv = "codex", name, attrString(attrs, attrCodexConversation)
	case isClaudeCodeEvent(body):
		agent, kind, conv = "claude-code", body.(string), attrString(attrs, attrSessionID)
	}
	if conv == "" {
		return "", "", ""
	}
	return agent, kind, conv
}

// agentSession is a session being made of an agent's events.
type agentSession struct {
	s    *session.Session
	main *session.Thread
	key  string
	file string
}

// add places m, from event e, at the end of the thread.
func (a *agentSession) add(m *session.Message, e event) {
	id := a.key + "/" + strconv.Itoa(len(a.main.Entries)+1)
	parent := ""
	if n := len(a.main.Entries); n > 0 {
		parent = a.main.Entries[n-1].ID
	}
	m.Time = e.time
	a.main.Entries = append(a.main.Entries, &session.Entry{ID: id, ParentID: parent, Time: e.time, Kind: session.EntryMessage, Type: e.name, Message: m})
}

// lacks says, once, what the agent's telemetry does not record.
func (a *agentSession) lacks(what string) {
	norm.Diag(a.s, a.file, 0, session.SeverityWarning, "%s", what)
}

// buildAgentSession turns one conversation's events into a session, in
// the order they happened (the agent's event sequence where it numbers
// them).
func buildAgentSession(c agentConversation, evs *agentEvents, file string) *session.Session {
	events := evs.events
	sort.SliceStable(events, func(i, j int) bool {
		si, okI := attrInt(events[i].attrs, "event.sequence")
		sj, okJ := attrInt(events[j].attrs, "event.sequence")
		if okI && okJ {
			return si < sj
		}
		return events[i].time.Before(events[j].time)
	})
	s := &session.Session{ID: c.id, Format: session.FormatOTLP, Source: file, Agent: evs.service}
	main := &session.Thread{ID: "main", Kind: session.ThreadMain}
	s.Threads = []*session.Thread{main}
	a := &agentSession{s: s, main: main, key: c.id, file: file}
	switch c.agent {
	case "codex":
		buildCodexSession(a, events)
	case "claude-code":
		buildClaudeCodeSession(a, events)
	}
	if t := norm.Title(main); t != "" {
		s.Title = t
	}
	norm.Finish(s)
	return s
}

// eventTime is when an event happened: its record's time, else its
// event.timestamp attribute.
func eventTime(e event) time.Time {
	if !e.time.IsZero() {
		return e.time
	}
	t, _ := time.Parse(time.RFC3339Nano, strings.TrimSpace(attrString(e.attrs, "event.timestamp")))
	return t
}
