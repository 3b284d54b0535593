package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"ctxscope/engine/session"
)

// FindingKind classifies what the validator found.
type FindingKind string

// Finding kinds.
const (
	// FindingRejected: the reference rejects the call; the agent broke the
	// protocol (the rejection is what it was, or would have been, told).
	FindingRejected FindingKind = "rejected"
	// FindingMismatch: the recorded answer is not what the reference
	// answers, so the session was not written by the reference tool (or was
	// edited).
	FindingMismatch FindingKind = "mismatch"
	// FindingUnclosed: a chunk is still active at the end of the history.
	FindingUnclosed FindingKind = "unclosed"
)

// Finding is one protocol observation about a delimiter (or guarded edit)
// call in a message list.
type Finding struct {
	Kind    FindingKind `json:"kind"`
	Message int         `json:"message"` // index of the assistant message that made the call
	CallID  string      `json:"callId,omitempty"`
	Tool    string      `json:"tool,omitempty"`
	// Expected is the reference's answer; Recorded the answer found in the
	// history, nil when the call has no result.
	Expected Answer  `json:"expected"`
	Recorded *Answer `json:"recorded,omitempty"`
	Text     string  `json:"text"` // a one-line human explanation
}

// Validate replays every delimiter call, and every edit or write call the
// reference guards, of msgs against the chunk state derived from the
// history before it, as the reference tool would have answered it. Calls of
// one assistant message all see the state from before that message (the
// reference executes them in parallel). Recorded results drive the state,
// as they do in the reference, so one bad answer does not cascade.
func Validate(msgs []*session.Message) []Finding {
	var st State
	var out []Finding
	results := resultIndex(msgs)
	for i, m := range msgs {
		switch m.Role {
		case session.RoleTool:
			for k := range m.Blocks {
				if ev, ok := EventOf(&m.Blocks[k]); ok {
					st.Record(ev)
				}
			}
		case session.RoleAssistant:
			for _, c := range m.ToolCalls() {
				if f, ok := check(&st, i, c, results[c.ToolCallID]); ok {
					out = append(out, f)
				}
			}
		}
	}
	if act, ok := st.Active(); ok {
		out = append(out, Finding{Kind: FindingUnclosed, Message: len(msgs) - 1, Text: fmt.Sprintf("chunk %q is never ended: everything after its start stays in context", act.Name)})
	}
	return out
}

// check answers one call and compares with its recorded result.
func check(st *State, at int, c *session.Block, rec *session.Block) (Finding, bool) {
	var want Answer
	switch {
	case IsDelimiter(c.ToolName):
		want = st.Execute(c.Arguments)
	case c.ToolName == "edit" || c.ToolName == "write":
		a, ok := st.GuardEdit()
		if ok {
			return Finding{}, false
		}
		want = a
	default:
		return Finding{}, false
	}
	f := Finding{Message: at, CallID: c.ToolCallID, Tool: c.ToolName, Expected: want}
	if rec != nil {
		got := recorded(rec)
		f.Recorded = &got
		if !sameAnswer(want, got) {
			f.Kind = FindingMismatch
			f.Text = fmt.Sprintf("%s call %s: recorded answer %q differs from the reference's %q", c.ToolName, c.ToolCallID, firstLine(got.Text), firstLine(want.Text))
			return f, true
		}
	}
	if !want.IsError {
		return Finding{}, false
	}
	f.Kind = FindingRejected
	f.Text = fmt.Sprintf("%s call %s rejected: %s", c.ToolName, c.ToolCallID, firstLine(want.Text))
	return f, true
}

// recorded reads the answer a tool result holds.
func recorded(b *session.Block) Answer {
	a := Answer{Text: b.ResultText(), IsError: b.IsError}
	if ev, ok := EventOf(b); ok {
		a.Event = &ev
	}
	return a
}

func sameAnswer(a, b Answer) bool {
	if a.Text != b.Text || a.IsError != b.IsError || (a.Event == nil) != (b.Event == nil) {
		return false
	}
	if a.Event == nil {
		return true
	}
	x, _ := json.Marshal(a.Event)
	y, _ := json.Marshal(b.Event)
	return bytes.Equal(x, y)
}

// resultIndex maps tool-call ids to their first result block.
func resultIndex(msgs []*session.Message) map[string]*session.Block {
	idx := map[string]*session.Block{}
	for _, m := range msgs {
		if m.Role != session.RoleTool {
			continue
		}
		for k := range m.Blocks {
			b := &m.Blocks[k]
			if b.Type == session.BlockToolResult {
				if _, dup := idx[b.ToolCallID]; !dup {
					idx[b.ToolCallID] = b
				}
			}
		}
	}
	return idx
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// Diagnostics turns findings into session diagnostics located at the
// source line of the message that made each call. entries holds the source
// entry of each message (as session.Context.Entries does); file names the
// source.
func Diagnostics(fs []Finding, entries []*session.Entry, file string) []session.Diagnostic {
	out := make([]session.Diagnostic, 0, len(fs))
	for _, f := range fs {
		line := 0
		if f.Message >= 0 && f.Message < len(entries) && entries[f.Message] != nil {
			line = entries[f.Message].Line
		}
		out = append(out, session.Diagnostic{File: file, Line: line, Severity: session.SeverityWarning, Message: "cwl: " + f.Text})
	}
	return out
}
