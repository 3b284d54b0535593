package cwl

import (
	"strings"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

func TestCommandHead(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		{`{"command":"go test ./engine/..."}`, "go test"},
		{`{"command":"cd /repo && npm run build"}`, "npm run"},
		{`{"command":["bash","-lc","cd x; pytest -q tests/test_a.py"]}`, "pytest"},
		{`{"cmd":"FOO=1 python -m pytest -x"}`, "pytest"},
		{`{"command":"/usr/bin/git diff --stat"}`, "git diff"},
		{`{"command":"bash -c 'ls -la src'"}`, "ls"},
		{`{"command":"make"}`, "make"},
		{`{"command":"# move the files\ncd src && mv a b"}`, "mv"},
		{`{"command":"grep -rn foo . | head"}`, "grep"},
		{`{"path":"a.go"}`, ""},
		{`not json`, ""},
		{`{"command":42}`, ""},
	} {
		if got := commandHead([]byte(c.args)); got != c.want {
			t.Errorf("commandHead(%s) = %q, want %q", c.args, got, c.want)
		}
	}
}

// TestInferredTitles names episodes of a small history by what they did,
// and numbers repeated titles.
func TestInferredTitles(t *testing.T) {
	call := func(id, name, args string) session.Block {
		return session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: name, Arguments: []byte(args)}
	}
	result := func(id string) *session.Message {
		return &session.Message{Role: session.RoleTool, Blocks: []session.Block{{Type: session.BlockToolResult, ToolCallID: id, Text: "ok"}}}
	}
	user := func(s string) *session.Message {
		return &session.Message{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: s}}}
	}
	asst := func(b ...session.Block) *session.Message {
		return &session.Message{Role: session.RoleAssistant, Blocks: b}
	}
	msgs := []*session.Message{
		user("fix the pager"),
		asst(call("1", "read", `{"path":"src/pager.go"}`), call("2", "read", `{"path":"src/pager.go"}`), call("3", "read", `{"path":"src/api.go"}`)), result("1"), result("2"), result("3"),
		asst(call("4", "edit", `{"path":"src/pager.go"}`)), result("4"),
		user("now run the tests"),
		asst(call("5", "bash", `{"command":"go test ./..."}`)), result("5"),
		user("and search for callers"),
		asst(call("6", "grep", `{"pattern":"NewPager"}`)), result("6"),
		asst(call("7", "edit", `{"path":"src/pager.go"}`)), result("7"),
	}
	eps := InferEpisodes(NewPlan(msgs, nil, estimateLedger(), DefaultClassifier()))
	var names []string
	for _, e := range eps.List {
		names = append(names, e.Name)
	}
	want := "read pager.go +1|edit pager.go|run go test|search 'NewPager'|edit pager.go (2)"
	if got := strings.Join(names, "|"); got != want {
		t.Errorf("names %q\nwant  %q", got, want)
	}
	if d := eps.List[1].Dependencies; len(d) != 1 || d[0] != "read pager.go +1" {
		t.Errorf("the edit depends on %q", d)
	}
}

// TestInspectingCommandsExplore checks that a command that only inspects
// (cat, grep…) makes exploration, as a read does, and so closes the act
// before it: an agent that reads through its shell (Codex, SWE-agent) has
// its work after an edit split into episodes, not one act that stays open.
// A command that changes or runs things continues the episode.
func TestInspectingCommandsExplore(t *testing.T) {
	call := func(id, cmd string) session.Block {
		return session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: "exec_command", Arguments: []byte(`{"cmd":"` + cmd + `"}`)}
	}
	patch := session.Block{Type: session.BlockToolCall, ToolCallID: "p", ToolName: "apply_patch", Arguments: []byte(`"*** Begin Patch\n*** Update File: calc.sh\n*** End Patch\n"`)}
	result := func(id string) *session.Message {
		return &session.Message{Role: session.RoleTool, Blocks: []session.Block{{Type: session.BlockToolResult, ToolCallID: id, Text: "ok"}}}
	}
	asst := func(b session.Block) *session.Message {
		return &session.Message{Role: session.RoleAssistant, Blocks: []session.Block{b}}
	}
	msgs := []*session.Message{
		{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: "fix the adder"}}},
		asst(call("1", "cat calc.sh")), result("1"),
		asst(patch), result("p"),
		asst(call("2", "sh test.sh")), result("2"),
		asst(call("3", "grep -n add calc.sh | head")), result("3"),
		asst(call("4", "cat > notes.md <<EOF")), result("4"),
	}
	eps := InferEpisodes(NewPlan(msgs, nil, estimateLedger(), DefaultClassifier()))
	var kinds []string
	for _, e := range eps.List {
		kinds = append(kinds, e.Kind+" "+e.Name)
	}
	want := "expl run cat|act edit calc.sh|expl run grep +1"
	if got := strings.Join(kinds, "|"); got != want {
		t.Errorf("episodes %q\nwant     %q", got, want)
	}
}

// TestInferredTitlesOnRealSessions checks that every inferred episode of
// the shared sessions has a unique name that says what it did, not a
// counter.
func TestInferredTitlesOnRealSessions(t *testing.T) {
	for _, f := range []string{"pi/pi-cwl__large-session.jsonl", "claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
		"swe-agent/swe-agent__gpt4-default__pydicom-1458.traj"} {
		s, err := ingest.ReadFile("../../testdata/shared/sessions/" + f)
		if err != nil {
			t.Fatal(err)
		}
		reqs := session.BuildRequests(s.Main())
		r, err := Prepare(reqs, estimateLedger(), PrepareOptions{Episodes: Inferred})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, e := range r.EpisodesOf(len(reqs) - 1).List {
			if seen[e.Name] {
				t.Errorf("%s: name %q twice", f, e.Name)
			}
			seen[e.Name] = true
			if e.Kind != KindUnannotated && !strings.ContainsAny(e.Name, " .") {
				t.Errorf("%s: episode %d named %q", f, e.ID, e.Name)
			}
		}
	}
}
