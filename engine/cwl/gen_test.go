package cwl

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	"ctxscope/engine/cwl/protocol"
	"ctxscope/engine/session"
)

// historyGen writes random but protocol-valid annotated histories: user
// turns (also inside episodes), expl and act episodes with dependencies on
// earlier expl episodes, thinking, text, and search, read, shell and edit
// calls with their results, unannotated gaps, and sometimes an episode left
// open at the end.
type historyGen struct {
	rng   *rand.Rand
	msgs  []*session.Message
	state protocol.State
	expls []string
	call  int
	names int
}

func genHistory(seed uint64) []*session.Message {
	g := &historyGen{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	g.user()
	for range 1 + g.rng.IntN(8) {
		switch g.rng.IntN(5) {
		case 0:
			g.user()
		case 1:
			g.work(1 + g.rng.IntN(3)) // unannotated gap
		default:
			g.episode()
		}
	}
	if g.rng.IntN(3) == 0 {
		g.open()
	}
	g.assistant(session.Block{Type: session.BlockText, Text: "done"})
	return g.msgs
}

func (g *historyGen) text(n int) string { return strings.Repeat("y", 4*n) }

func (g *historyGen) user() {
	g.msgs = append(g.msgs, &session.Message{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: g.text(1 + g.rng.IntN(30))}}})
}

func (g *historyGen) assistant(bs ...session.Block) {
	g.msgs = append(g.msgs, &session.Message{Role: session.RoleAssistant, Blocks: bs})
}

func (g *historyGen) result(id, tool, text string, details json.RawMessage) {
	g.msgs = append(g.msgs, &session.Message{Role: session.RoleTool, Blocks: []session.Block{{Type: session.BlockToolResult,
		ToolCallID: id, ToolName: tool, Content: []session.Block{{Type: session.BlockText, Text: text}}, Details: details}}})
}

// tool makes one assistant message with one tool call (maybe with
// thinking and text) and its result.
func (g *historyGen) tool(name string) {
	g.call++
	id := fmt.Sprintf("c%d", g.call)
	var bs []session.Block
	if g.rng.IntN(3) == 0 {
		bs = append(bs, session.Block{Type: session.BlockThinking, Text: g.text(1 + g.rng.IntN(50))})
	}
	if g.rng.IntN(4) == 0 {
		bs = append(bs, session.Block{Type: session.BlockText, Text: g.text(1 + g.rng.IntN(10))})
	}
	args := fmt.Sprintf(`{"path":"f%d.go"}`, g.rng.IntN(6))
	bs = append(bs, session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: name, Arguments: json.RawMessage(args)})
	g.assistant(bs...)
	g.result(id, name, g.text(1+g.rng.IntN(200)), nil)
}

var genTools = []string{"grep", "ls", "read", "read", "bash", "edit", "write", "TodoWrite"}

func (g *historyGen) work(n int) {
	for range n {
		if g.rng.IntN(8) == 0 {
			g.user()
			continue
		}
		g.tool(genTools[g.rng.IntN(len(genTools))])
	}
}

// delimiter issues a delimiter call and records the reference's answer.
func (g *historyGen) delimiter(args string) bool { return g.delimiterBeside(args) }

// delimiterBeside is delimiter with other blocks (calls whose results the
// caller adds after the delimiter's) before the call, in its message.
func (g *historyGen) delimiterBeside(args string, beside ...session.Block) bool {
	g.call++
	id := fmt.Sprintf("c%d", g.call)
	g.assistant(append(beside, session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: "delimiter", Arguments: json.RawMessage(args)})...)
	a := g.state.Execute(json.RawMessage(args))
	var details json.RawMessage = json.RawMessage(`{}`)
	if a.Event != nil {
		details, _ = json.Marshal(map[string]any{"chunkEvent": a.Event})
		g.state.Record(*a.Event)
	}
	g.result(id, "delimiter", a.Text, details)
	return !a.IsError
}

func (g *historyGen) start() (string, string) {
	g.names++
	name := fmt.Sprintf("ep%d", g.names)
	if len(g.expls) > 0 && g.rng.IntN(2) == 0 {
		deps := []string{g.expls[g.rng.IntN(len(g.expls))]}
		if g.rng.IntN(3) == 0 {
			deps = append(deps, g.expls[g.rng.IntN(len(g.expls))])
		}
		b, _ := json.Marshal(deps)
		g.delimiter(fmt.Sprintf(`{"action":"start","name":%q,"type":"act","dependencies":%s}`, name, b))
		return name, KindAct
	}
	g.delimiter(fmt.Sprintf(`{"action":"start","name":%q,"type":"expl"}`, name))
	return name, KindExpl
}

func (g *historyGen) episode() {
	name, kind := g.start()
	g.work(1 + g.rng.IntN(5))
	if kind == KindExpl {
		g.delimiter(`{"action":"end","description":"found things in ` + name + `"}`)
		g.expls = append(g.expls, name)
	} else {
		g.delimiter(`{"action":"end"}`)
	}
}

func (g *historyGen) open() {
	g.start()
	g.work(1 + g.rng.IntN(3))
}

// threadOf wraps messages as a linear thread.
func threadOf(msgs []*session.Message) *session.Thread {
	t := &session.Thread{ID: "t", Kind: session.ThreadMain}
	for i, m := range msgs {
		e := &session.Entry{ID: fmt.Sprintf("m%d", i), Line: i + 1, Kind: session.EntryMessage, Message: m}
		if i > 0 {
			e.ParentID = fmt.Sprintf("m%d", i-1)
		}
		t.Entries = append(t.Entries, e)
	}
	return t
}

// fixedTool adds a call of tool name on path whose result is n tokens.
func (g *historyGen) fixedTool(name, path string, n int) {
	g.call++
	id := fmt.Sprintf("c%d", g.call)
	g.assistant(session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: name, Arguments: json.RawMessage(fmt.Sprintf(`{"path":%q}`, path))})
	g.result(id, name, g.text(n), nil)
}
