package wire

import (
	"testing"

	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// thread builds a linear thread of messages.
func thread(id string, msgs ...*session.Message) *session.Thread {
	t := &session.Thread{ID: id, Kind: session.ThreadMain}
	for i, m := range msgs {
		e := &session.Entry{ID: string(rune('a' + i)), Kind: session.EntryMessage, Message: m}
		if i > 0 {
			e.ParentID = t.Entries[i-1].ID
		}
		t.Entries = append(t.Entries, e)
	}
	return t
}

func text(role session.Role, s string) *session.Message {
	return &session.Message{Role: role, Blocks: []session.Block{{Type: session.BlockText, Text: s}}}
}

func call(id string) *session.Message {
	return &session.Message{Role: session.RoleAssistant, Blocks: []session.Block{{Type: session.BlockToolCall, ToolCallID: id, ToolName: "read", Arguments: []byte(`{"path": "a"}`)}}}
}

func result(id, s string) *session.Message {
	return &session.Message{Role: session.RoleTool, Blocks: []session.Block{{Type: session.BlockToolResult, ToolCallID: id, Content: []session.Block{{Type: session.BlockText, Text: s}}}}}
}

// TestJoinAndCompare joins a log's thread to its recorded conversation
// (the one named by the log's session, among two that ask the same) and
// checks what each request's input lacks and holds in another form.
func TestJoinAndCompare(t *testing.T) {
	log := thread("main", text(session.RoleUser, "<system-reminder>today</system-reminder>"), text(session.RoleUser, "fix it"),
		call("c1"), result("c1", "text of a"), text(session.RoleAssistant, "done"))
	s := &session.Session{ID: "s-1", Threads: []*session.Thread{log}}
	schema := &session.Message{Role: session.RoleSystem, Origin: session.OriginRequestShape, Blocks: []session.Block{
		{Type: session.BlockText, Text: "You are an agent."}, {Type: session.BlockText, ToolName: "read", Text: `{"name":"read"}`}}}
	wireThread := thread("s-1", schema, text(session.RoleUser, "<system-reminder>today</system-reminder>"), text(session.RoleUser, "fix it"),
		&session.Message{Role: session.RoleAssistant, Blocks: []session.Block{{Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "read", Arguments: []byte(`{"path":"a"}`)}}},
		result("c1", "text of a, as sent"), text(session.RoleAssistant, "done"))
	other := thread("s-2", text(session.RoleUser, "fix it"), text(session.RoleAssistant, "done"))
	unrelated := thread("s-1", text(session.RoleUser, "name this chat"), text(session.RoleAssistant, "Fixes"))
	wires := []*session.Session{{ID: "w-other", Threads: []*session.Thread{other}}, {ID: "w-title", Threads: []*session.Thread{unrelated}}, {ID: "w", Threads: []*session.Thread{wireThread}}}

	var cands []Candidate
	for _, w := range wires {
		cands = append(cands, CandidateOf(w.ID, w))
	}
	key, ok := Match(s, log, cands)
	if !ok || key != "w" {
		t.Fatalf("matched %q, want the conversation named by the log's session that asks what it asks", key)
	}
	c, _ := tokens.ByName("estimate")
	diffs := Compare(log, wireThread, c)
	if len(diffs) != 2 || diffs[0].WireRequest != 0 || diffs[1].WireRequest != 1 {
		t.Fatalf("diffs %+v", diffs)
	}
	first := diffs[0]
	if len(first.Lacks) != 2 || first.Lacks[0].Section != session.SectionNone || first.Lacks[1].Section != session.SectionToolSchema || len(first.Extra) != 0 {
		t.Errorf("request 0: lacks %+v extra %+v", first.Lacks, first.Extra)
	}
	second := diffs[1]
	// The result differs: it shows on both sides; the call's arguments
	// differ only in spacing, which is not a difference.
	if len(second.Lacks) != 3 || second.Lacks[2].Type != session.BlockToolResult || len(second.Extra) != 1 || second.Extra[0].Type != session.BlockToolResult ||
		second.ExtraTokens == 0 || second.LacksTokens <= first.LacksTokens {
		t.Errorf("request 1: lacks %+v extra %+v", second.Lacks, second.Extra)
	}
	// Without the session's name, the prompt alone finds it.
	if key, ok := Match(&session.Session{ID: "x", Threads: []*session.Thread{log}}, log, cands[2:]); !ok || key != "w" {
		t.Errorf("by prompt alone: %q", key)
	}
}
