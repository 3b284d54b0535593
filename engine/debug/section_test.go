package debug

import (
	"context"
	"testing"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
)

// TestSectionsInTheContextAndBreakdown checks that a request read from
// the request as sent shows its tool schemas and the reminders the agent
// injected as what they are, block by block and in the breakdown, apart
// from the system prompt and what the user wrote.
func TestSectionsInTheContextAndBreakdown(t *testing.T) {
	th := &session.Thread{ID: "main", Kind: session.ThreadMain}
	add := func(m *session.Message) {
		e := &session.Entry{ID: string(rune('a' + len(th.Entries))), Kind: session.EntryMessage, Message: m}
		if n := len(th.Entries); n > 0 {
			e.ParentID = th.Entries[n-1].ID
		}
		th.Entries = append(th.Entries, e)
	}
	add(&session.Message{Role: session.RoleSystem, Origin: session.OriginRequestShape, Blocks: []session.Block{
		{Type: session.BlockText, Text: "You are an agent."},
		{Type: session.BlockText, ToolName: "Read", Text: `{"name":"Read","description":"Reads a file from the local filesystem.","input_schema":{"type":"object"}}`},
	}})
	add(&session.Message{Role: session.RoleUser, Blocks: []session.Block{
		{Type: session.BlockText, Text: "<system-reminder>\nToday's date is 2026-11-27.\n</system-reminder>"},
		{Type: session.BlockText, Text: "Fix the failing test."},
	}})
	add(&session.Message{Role: session.RoleAssistant, Blocks: []session.Block{{Type: session.BlockText, Text: "Done."}}})
	s := &session.Session{Format: session.FormatClaudeCode, Threads: []*session.Thread{th}}

	r, err := New(context.Background(), s, Params{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := Params{Policy: cwl.PolicyNone, Budget: 100000}
	c, err := r.Context(p, 0, 200)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]session.Section{{session.SectionNone, session.SectionToolSchema}, {session.SectionInjected, session.SectionNone}}
	for i, it := range c.Items {
		for b, bi := range it.Blocks {
			if bi.Section != want[i][b] {
				t.Errorf("message %d block %d: section %q, want %q", i, b, bi.Section, want[i][b])
			}
		}
	}
	parts := map[string]int{}
	for _, pt := range c.Parts {
		if pt.Group == "kind" {
			parts[pt.Name] = pt.Tokens
		}
	}
	for _, name := range []string{PartSystem, PartTools, PartUser, PartInjected} {
		if parts[name] == 0 {
			t.Errorf("breakdown %v: no %s tokens", parts, name)
		}
	}
	if c.Items[0].Blocks[1].Tokens != parts[PartTools] || c.Items[1].Blocks[0].Tokens != parts[PartInjected] {
		t.Errorf("breakdown %v: tools and injected are not the schema's %d and the reminder's %d tokens", parts, c.Items[0].Blocks[1].Tokens, c.Items[1].Blocks[0].Tokens)
	}
}
