package cwl

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"ctxscope/engine/session"
)

// These tests build the kept-aside vectors V9 and V12 from their
// descriptions in cwl-reference.md §5 and check the behaviour described
// there (their exact numbers are not published).

func steps(cs ChunkStats) string {
	var s []string
	for _, st := range cs.Steps {
		s = append(s, st.Step)
	}
	return strings.Join(s, ",")
}

func TestV9UserTurnsAloneExceedBudget(t *testing.T) {
	g := &historyGen{rng: rand.New(rand.NewPCG(9, 9))}
	g.msgs = append(g.msgs, &session.Message{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: strings.Repeat("u", 4000)}}})
	g.delimiter(`{"action":"start","name":"e1","type":"expl"}`)
	g.fixedTool("read", "a.ts", 300)
	g.delimiter(`{"action":"end","description":"read a.ts"}`)
	g.assistant(session.Block{Type: session.BlockText, Text: "done"})
	res := FilterPiCWL(g.msgs, 400000, &Limit{Value: 500}, estimateLedger())
	if len(res.ChunkStats) != 1 || steps(res.ChunkStats[0]) != "read_tools,entire_chunk" {
		t.Fatalf("chunkStats %+v", res.ChunkStats)
	}
	if res.TokensAfter <= 500 || res.TokensAfter < 1000 {
		t.Errorf("tokensAfter %d: the 1000-token user turn must stay, over budget", res.TokensAfter)
	}
	if res.View[0].I != 0 || res.View[0].Blocks != nil {
		t.Error("the user turn was touched")
	}
}

func TestV12WhatRemainsAfterFullRemoval(t *testing.T) {
	g := &historyGen{rng: rand.New(rand.NewPCG(12, 12))}
	g.user()
	g.call++
	g.assistant(session.Block{Type: session.BlockText, Text: "Let me look around."},
		session.Block{Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "delimiter", Arguments: json.RawMessage(`{"action":"start","name":"e1","type":"expl"}`)})
	ev := `{"chunkEvent":{"action":"start","chunk":{"name":"e1","type":"expl"}}}`
	g.result("c1", "delimiter", "start [expl] e1", json.RawMessage(ev))
	g.state.Record(ChunkEvent{Action: "start", Chunk: Chunk{Name: "e1", Type: KindExpl}})
	g.fixedTool("ls", ".", 200)
	g.delimiter(`{"action":"end","description":"repo layout: src/, test/"}`)
	g.assistant(session.Block{Type: session.BlockText, Text: "done"})
	res := FilterPiCWL(g.msgs, 400000, &Limit{Value: 10}, estimateLedger())
	if len(res.ChunkStats) != 1 || steps(res.ChunkStats[0]) != "search_tools,entire_chunk" || !res.ChunkStats[0].FullyRemoved {
		t.Fatalf("chunkStats %+v", res.ChunkStats)
	}
	var kept []int
	for _, v := range res.View {
		kept = append(kept, v.I)
	}
	if len(kept) != 3 || kept[0] != 0 || kept[1] != 1 || kept[2] != len(g.msgs)-1 {
		t.Errorf("view %v, want the user turn, the orphaned start call and the final text", kept)
	}
	if res.TokensAfter <= 10 {
		t.Errorf("tokensAfter %d, want still over budget", res.TokensAfter)
	}
}

func TestV12ExtraCallBesideStart(t *testing.T) {
	g := &historyGen{rng: rand.New(rand.NewPCG(12, 13))}
	g.user()
	g.assistant(session.Block{Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "delimiter", Arguments: json.RawMessage(`{"action":"start","name":"e1","type":"expl"}`)},
		session.Block{Type: session.BlockToolCall, ToolCallID: "c2", ToolName: "read", Arguments: json.RawMessage(`{"path":"a.ts"}`)})
	g.result("c1", "delimiter", "start [expl] e1", json.RawMessage(`{"chunkEvent":{"action":"start","chunk":{"name":"e1","type":"expl"}}}`))
	g.result("c2", "read", g.text(300), nil)
	g.state.Record(ChunkEvent{Action: "start", Chunk: Chunk{Name: "e1", Type: KindExpl}})
	g.call = 2
	g.assistant(session.Block{Type: session.BlockToolCall, ToolCallID: "c3", ToolName: "grep", Arguments: json.RawMessage(`{"pattern":"x"}`)},
		session.Block{Type: session.BlockToolCall, ToolCallID: "c4", ToolName: "delimiter", Arguments: json.RawMessage(`{"action":"end","description":"a"}`)})
	g.result("c3", "grep", g.text(100), nil)
	g.result("c4", "delimiter", "end [expl] e1 \u2014 a", json.RawMessage(`{"chunkEvent":{"action":"end","chunk":{"name":"e1","type":"expl","description":"a"}}}`))
	g.assistant(session.Block{Type: session.BlockText, Text: "done"})
	res := FilterPiCWL(g.msgs, 400000, &Limit{Value: 1}, estimateLedger())
	if steps(res.ChunkStats[0]) != "search_tools,entire_chunk" {
		t.Errorf("steps %s: the read call lies outside the range, so read_tools finds nothing", steps(res.ChunkStats[0]))
	}
	var kept []int
	for _, v := range res.View {
		kept = append(kept, v.I)
	}
	if len(kept) != 3 || kept[1] != 1 {
		t.Errorf("view %v: want the user turn, the start message with both calls, the final text", kept)
	}
}
