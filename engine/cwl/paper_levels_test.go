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

	p := NewPlan(msgs, nil, estimateLedger(), nil)
	eps := DeclaredEpisodes(p)
	graph, err := BuildGraph(eps)
	if err != nil {
		t.Fatal(err)
	}
	u := -1
	for i, e := range eps.List {
		if e.Name == "e1" {
			u = i
		}
	}
	if u < 0 {
		t.Fatalf("no episode e1 in %+v", eps.List)
	}
	run := newPaperRun(p, eps, graph)
	run.w.grow(len(msgs))

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
