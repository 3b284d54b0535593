package report

import (
	"testing"

	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// TestInputSources checks what a report says of where each request's
// input comes from: a thread read from Claude Code's request records, a
// transcript that lacks a known part, and one with usage to estimate the
// lacking part from.
func TestInputSources(t *testing.T) {
	text := func(role session.Role, s string) *session.Message {
		return &session.Message{Role: role, Blocks: []session.Block{{Type: session.BlockText, Text: s}}}
	}
	thread := func(withShape bool, usage []int) *session.Thread {
		th := &session.Thread{ID: "main", Kind: session.ThreadMain}
		add := func(m *session.Message) {
			e := &session.Entry{ID: string(rune('a' + len(th.Entries))), Kind: session.EntryMessage, Message: m}
			if n := len(th.Entries); n > 0 {
				e.ParentID = th.Entries[n-1].ID
			}
			th.Entries = append(th.Entries, e)
		}
		if withShape {
			m := text(session.RoleSystem, "You are an agent.")
			m.Origin = session.OriginRequestShape
			add(m)
		}
		for i, u := range usage {
			add(text(session.RoleUser, "question number "+string(rune('0'+i))))
			a := text(session.RoleAssistant, "answer")
			a.Usage = &session.Usage{Input: u, Output: 5}
			add(a)
		}
		return th
	}
	est := tokens.NewLedger(tokens.Estimator{})
	for _, tc := range []struct {
		name   string
		s      *session.Session
		source string
		lacks  string
	}{
		{"Claude Code's request records", &session.Session{Format: session.FormatClaudeCode, Threads: []*session.Thread{thread(true, []int{100, 120, 140})}},
			SourceRequestRecord, ""},
		{"Claude Code's transcript alone", &session.Session{Format: session.FormatClaudeCode, Threads: []*session.Thread{thread(false, []int{0, 0, 0})}},
			SourceTranscript, "the system prompt and the tool schemas"},
		{"Copilot with usage to estimate the schemas from", &session.Session{Format: session.FormatCopilot,
			Threads: []*session.Thread{thread(false, []int{5000, 5010, 5020, 5030, 5040})}}, SourceEstimated, "the tool schemas"},
	} {
		r := Build(tc.s, est)
		last := r.RequestTokens[len(r.RequestTokens)-1]
		if last.Source != tc.source || r.InputLacks != tc.lacks || (tc.source == SourceEstimated) != (last.Remainder > 0) {
			t.Errorf("%s: source %q, remainder %d, lacks %q; want %q, %q", tc.name, last.Source, last.Remainder, r.InputLacks, tc.source, tc.lacks)
		}
	}
}
