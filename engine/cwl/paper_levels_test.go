package cwl

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"ctxscope/engine/session"
)

// TestEachLevelStripsItsClasses evicts one expl episode level by level and
// checks, block by block, what each level took (cwl-reference.md §2.6 and §2.11):
// level 1 its reasoning, level 2 its search calls and their output,
// level 3 its read and shell calls and their output, level 4 the rest
// but the user turn inside it and the end delimiter that carries its
// description. Edits are durable: they leave only with the episode.
func TestEachLevelStripsItsClasses(t *testing.T) {
	g := &historyGen{rng: rand.New(rand.NewPCG(1, 2))}
	g.user()
	g.delimiter(`{"action":"start","name":"e1","type":"expl"}`)
	for _, tool := range []string{"grep", "ls", "read", "bash", "edit", "Grep", "Read", "Bash"} {
		g.call++
		id := fmt.Sprintf("c%d", g.call)
		g.assistant(
			session.Block{Type: session.BlockThinking, Text: "why " + tool},
			session.Block{Type: session.BlockText, Text: "calling " + tool},
			session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: tool, Arguments: json.RawMessage(`{"path":"a.go"}`)})
		g.result(id, tool, "output of "+tool, nil)
		if tool == "bash" {
			g.user() // a user turn inside the episode is never evicted
		}
	}
	g.delimiter(`{"action":"end","description":"found a.go"}`)
	g.user()
	msgs := g.msgs

	p, eps, run := paperRunOver(t, msgs)
	u := episodeNamed(t, eps, "e1")

	// kept names what is left of e1's calls, thinking and results, in
	// order: "thinking", "text" for the assistant's text, a tool's name
	// for its call and "=tool" for its result.
	kept := func() string {
		var out []string
		for i, m := range msgs {
			if run.w.gone[i] {
				continue
			}
			for k, b := range m.Blocks {
				if !run.w.keep[p.mFirst[i]+int32(k)] {
					continue
				}
				switch {
				case b.Type == session.BlockThinking:
					out = append(out, "thinking")
				case b.Type == session.BlockText && m.Role == session.RoleAssistant:
					out = append(out, "text")
				case b.Type == session.BlockToolCall && b.ToolName != "delimiter":
					out = append(out, b.ToolName)
				case b.Type == session.BlockToolResult && b.ToolName != "delimiter":
					out = append(out, "="+b.ToolName)
				}
			}
		}
		return strings.Join(out, " ")
	}
	userTurns := func() int {
		n := 0
		for i, m := range msgs {
			if m.IsUser() && !run.w.gone[i] {
				n++
			}
		}
		return n
	}
	users := userTurns()

	for _, tc := range []struct {
		level int
		want  string
	}{
		{LevelReasoning, "text grep =grep text ls =ls text read =read text bash =bash text edit =edit text Grep =Grep text Read =Read text Bash =Bash"},
		{LevelBulk, "text text text read =read text bash =bash text edit =edit text text Read =Read text Bash =Bash"},
		{LevelIntermediate, "text text text text text edit =edit text text text"},
		{LevelFull, ""},
	} {
		if !run.apply(u, tc.level) {
			t.Errorf("level %d removed nothing", tc.level)
		}
		if got := kept(); got != tc.want {
			t.Errorf("after level %d, kept:\n %s\nwant:\n %s", tc.level, got, tc.want)
		}
		if got := userTurns(); got != users {
			t.Errorf("after level %d, %d user turns left of %d", tc.level, got, users)
		}
	}
	trace := false
	for i, m := range msgs {
		if !run.w.gone[i] && m.Role == session.RoleTool && strings.Contains(m.Blocks[0].ResultText(), "found a.go") {
			trace = true
		}
	}
	if !trace {
		t.Error("the end delimiter's description left with the episode")
	}
}

// TestFullEvictionTakesResultsPastTheEpisode ends an act episode with an
// edit called beside the end delimiter, so that the edit's result comes
// after the delimiter's, past the episode's last message: level 3 leaves
// the edit (durable) and level 4 must take its result too, wherever it is.
// (An expl episode keeps that message for its description, and drops its
// other calls with their results another way.)
func TestFullEvictionTakesResultsPastTheEpisode(t *testing.T) {
	g := &historyGen{rng: rand.New(rand.NewPCG(3, 4))}
	g.user()
	g.delimiter(`{"action":"start","name":"e1","type":"expl"}`)
	g.fixedTool("read", "a.go", 20)
	g.delimiter(`{"action":"end","description":"read a.go"}`)
	if !g.delimiter(`{"action":"start","name":"a1","type":"act","dependencies":["e1"]}`) {
		t.Fatal("the delimiter refused to start a1")
	}
	g.fixedTool("grep", "a.go", 20)
	edit := session.Block{Type: session.BlockToolCall, ToolCallID: "edit1", ToolName: "edit", Arguments: json.RawMessage(`{"path":"a.go"}`)}
	if !g.delimiterBeside(`{"action":"end"}`, edit) {
		t.Fatal("the delimiter refused to end a1")
	}
	g.result("edit1", "edit", "edited a.go", nil)
	g.user()
	msgs := g.msgs

	p, eps, run := paperRunOver(t, msgs)
	u := episodeNamed(t, eps, "a1")
	editResult := len(msgs) - 2
	if eps.List[u].End >= editResult {
		t.Fatalf("the edit's result (message %d) is inside a1, which ends at %d", editResult, eps.List[u].End)
	}
	resultKept := func() bool { return !run.w.gone[editResult] && run.w.keep[p.mFirst[editResult]] }
	for _, lv := range []int{LevelReasoning, LevelBulk, LevelIntermediate} {
		run.apply(u, lv)
		if !resultKept() {
			t.Fatalf("level %d took the result of a durable edit", lv)
		}
	}
	run.apply(u, LevelFull)
	if resultKept() {
		t.Error("level 4 left the result of the episode's edit, past its end")
	}
}

// paperRunOver prepares the paper policy over msgs with their declared
// episodes, the whole of msgs in context, so that a test can apply levels
// to an episode by hand.
func paperRunOver(t *testing.T, msgs []*session.Message) (*Plan, *Episodes, *paperRun) {
	t.Helper()
	p := NewPlan(msgs, nil, estimateLedger(), nil)
	eps := DeclaredEpisodes(p)
	graph, err := BuildGraph(eps)
	if err != nil {
		t.Fatal(err)
	}
	run := newPaperRun(p, eps, graph)
	run.w.grow(len(msgs))
	return p, eps, run
}

// episodeNamed returns the index of the episode called name.
func episodeNamed(t *testing.T, eps *Episodes, name string) int {
	t.Helper()
	for i, e := range eps.List {
		if e.Name == name {
			return i
		}
	}
	t.Fatalf("no episode %s in %+v", name, eps.List)
	return -1
}
