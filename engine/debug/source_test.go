package debug

import (
	"context"
	"strings"
	"testing"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
)

// TestCounterNoteSaysWhatTheLogHolds checks the sentence the timeline's
// counter note ends with: the request as sent, for a thread read from
// Claude Code's request records; what the log lacks, for a format whose
// log the real agents' tests measured; nothing for one not measured.
func TestCounterNoteSaysWhatTheLogHolds(t *testing.T) {
	thread := func(shape bool) *session.Thread {
		th := &session.Thread{ID: "main", Kind: session.ThreadMain}
		add := func(m *session.Message) {
			e := &session.Entry{ID: string(rune('a' + len(th.Entries))), Kind: session.EntryMessage, Message: m}
			if n := len(th.Entries); n > 0 {
				e.ParentID = th.Entries[n-1].ID
			}
			th.Entries = append(th.Entries, e)
		}
		if shape {
			add(&session.Message{Role: session.RoleSystem, Origin: session.OriginRequestShape, Blocks: []session.Block{{Type: session.BlockText, Text: "You are an agent."}}})
		}
		add(&session.Message{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: "Fix it."}}})
		add(&session.Message{Role: session.RoleAssistant, Blocks: []session.Block{{Type: session.BlockText, Text: "Done."}}})
		return th
	}
	for _, tc := range []struct {
		name string
		s    *session.Session
		want string
	}{
		{"request records", &session.Session{Format: session.FormatClaudeCode, Threads: []*session.Thread{thread(true)}}, "holds each request as the agent sent it"},
		{"Codex", &session.Session{Format: session.FormatCodex, Threads: []*session.Thread{thread(false)}}, "The log lacks the tool schemas of each request."},
		{"a format not measured", &session.Session{Format: session.FormatPi, Threads: []*session.Thread{thread(false)}}, ""},
	} {
		r, err := New(context.Background(), tc.s, Params{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		tl, err := r.Timeline(Params{Policy: cwl.PolicyNone, Budget: 1000})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tc.want == "" && strings.Contains(tl.CounterNote, "The log "):
			t.Errorf("%s: note %q says what the log holds", tc.name, tl.CounterNote)
		case tc.want != "" && !strings.Contains(tl.CounterNote, tc.want):
			t.Errorf("%s: note %q, want it to say %q", tc.name, tl.CounterNote, tc.want)
		}
	}
}
