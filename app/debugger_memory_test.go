package app

import (
	"context"
	"testing"

	"ctxscope/engine/debug"
	"ctxscope/engine/ingest"
	"ctxscope/engine/memory/code"
	"ctxscope/engine/recall"
)

// TestSessionMemoryLeadsToTheEvictedBlock follows the pi session's memory
// through a replay that evicts, and opens the context at the request
// where each of a sample of evicted items left: the item's block is
// there, and evicted.
func TestSessionMemoryLeadsToTheEvictedBlock(t *testing.T) {
	a := newApp(t, Options{})
	info, err := a.sessions.OpenPath(context.Background(), piDir+"pi-cwl__before-compaction.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p := debug.Params{Policy: "paper", Budget: 20000, Episodes: "inferred"}
	sm, err := a.debugger.Memory(context.Background(), info.Key, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(sm.Items) == 0 || len(sm.Graph.Nodes) == 0 || len(sm.Graph.Edges) != len(sm.Items) {
		t.Fatalf("%d items, %d entities, %d relations drawn", len(sm.Items), len(sm.Graph.Nodes), len(sm.Graph.Edges))
	}
	if len(sm.LookBacks) == 0 {
		t.Fatal("no look-back at τ 20000")
	}
	// Another τ reuses the recall index of this revision and thread.
	lm, _ := a.debugger.memories.cache.Held(info.Key)
	var first *recall.Index
	for _, x := range lm.indexes {
		first = x
	}
	if first == nil {
		t.Fatal("no recall index kept")
	}
	if _, err := a.debugger.Memory(context.Background(), info.Key, debug.Params{Policy: "paper", Budget: 40000, Episodes: "inferred"}); err != nil {
		t.Fatal(err)
	}
	for _, x := range lm.indexes {
		if len(lm.indexes) != 1 || x != first {
			t.Errorf("%d recall indexes after two budgets, want the first one only", len(lm.indexes))
		}
	}
	checked := 0
	for _, it := range sm.Items {
		st, _ := it.At(sm.Requests - 1)
		if st != recall.Evicted || checked == 12 {
			continue
		}
		last := it.Spans[len(it.Spans)-1]
		if len(it.Spans) > 1 || it.Where.Message < 0 {
			continue
		}
		c, err := a.debugger.Context(context.Background(), info.Key, p, last.Evicted)
		if err != nil {
			t.Fatal(err)
		}
		if it.Where.Message >= len(c.Items) || c.Items[it.Where.Message].I != it.Where.Message {
			t.Fatalf("%s: message %d not in the context of request %d", it.Relation, it.Where.Message, last.Evicted)
		}
		m := c.Items[it.Where.Message]
		if it.Where.Block >= len(m.Blocks) {
			t.Fatalf("%s: block %d of a message of %d", it.Relation, it.Where.Block, len(m.Blocks))
		}
		if m.Episode >= 0 && c.Episodes[m.Episode].Name != it.Episode {
			t.Errorf("%s: episode %q, the context names it %q", it.Relation, it.Episode, c.Episodes[m.Episode].Name)
		}
		if m.State != "evicted" && m.Blocks[it.Where.Block].State != "evicted" {
			t.Errorf("%s: at request %d its block is %s", it.Relation, last.Evicted, m.Blocks[it.Where.Block].State)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no evicted item checked")
	}
	for _, lb := range sm.LookBacks {
		if lb.Memory.Tokens > sm.RecallBudget || len(lb.Target) == 0 {
			t.Errorf("look-back at %d: %d tokens, %d target passages", lb.Request, lb.Memory.Tokens, len(lb.Target))
		}
		for _, p := range lb.Memory.Passages {
			if p.Text == "" || p.Where.Request < 0 {
				t.Errorf("look-back at %d: passage %s shown as %+v", lb.Request, p.ID, p)
			}
		}
	}
}

// TestSessionMemoryGrowsWithALiveSession tails a session written in two
// halves: after the append the memory has read only the new entries
// (the reader is the same) and equals the memory of the whole file.
func TestSessionMemoryGrowsWithALiveSession(t *testing.T) {
	a := newApp(t, Options{})
	rec := &appendRecorder{seen: make(chan struct{}, 1)}
	a.SetPlatform(rec)
	path, rest := halfSession(t)
	info, err := a.sessions.OpenPath(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	p := debug.Params{Policy: "paper", Budget: 30000}
	before, err := a.debugger.Memory(context.Background(), info.Key, p)
	if err != nil {
		t.Fatal(err)
	}
	sm, _ := a.debugger.memories.cache.Held(info.Key)
	reader := sm.reader
	if err := a.live.Follow(context.Background(), info.Key); err != nil {
		t.Fatal(err)
	}
	defer a.live.Unfollow(context.Background(), info.Key)
	appendAndWait(t, rec, path, rest, 453)
	after, err := a.debugger.Memory(context.Background(), info.Key, p)
	if err != nil {
		t.Fatal(err)
	}
	sm, _ = a.debugger.memories.cache.Held(info.Key)
	if sm.reader != reader {
		t.Error("the memory was read again from the start")
	}
	whole, err := ingest.ReadFile(piDir + "pi-cwl__large-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := code.ReadSession(info.Key, whole, nil)
	we, wr := want.Graph.Len()
	ge, gr := sm.m.Graph.Len()
	if ge != we || gr != wr || len(sm.m.Passages) != len(want.Passages) {
		t.Errorf("after the append: %d entities, %d relations, %d passages; the whole file: %d, %d, %d",
			ge, gr, len(sm.m.Passages), we, wr, len(want.Passages))
	}
	if len(after.Items) <= len(before.Items) || after.Requests != 453 {
		t.Errorf("items %d then %d, requests %d", len(before.Items), len(after.Items), after.Requests)
	}
}

// TestMemoryVariantsAddUp measures paper+memory at two budgets of the pi
// session: look-backs left are those at τ − B less those recall avoided,
// the recalls stay within B each, and a bad call is refused.
func TestMemoryVariantsAddUp(t *testing.T) {
	a := newApp(t, Options{})
	info, err := a.sessions.OpenPath(context.Background(), piDir+"pi-cwl__before-compaction.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p := debug.Params{Episodes: "inferred"}
	vs, err := a.debugger.MemoryVariants(context.Background(), info.Key, p, []int{20000, 40000})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		t.Logf("τ %d: paper %d look-backs; at τ−B %d, %d avoided, %d left, %d tokens", v.Budget, v.Paper, v.Reserved, v.Avoided, v.LookBacks, v.TokensAdded)
		if v.LookBacks != v.Reserved-v.Avoided || v.TokensAdded > v.Reserved*v.RecallBudget || v.Recall.Events != nil {
			t.Errorf("τ %d: %+v", v.Budget, v)
		}
	}
	if vs[0].Paper == 0 {
		t.Error("no look-back at τ 20000")
	}
	for _, bad := range [][]int{nil, {400}, make([]int, maxVariantBudgets+1)} {
		if _, err := a.debugger.MemoryVariants(context.Background(), info.Key, p, bad); err == nil {
			t.Errorf("budgets %v accepted", bad)
		}
	}
}

// TestLocatePassage takes a passage of a session's memory to the block
// it was read from, and refuses ids that name nothing.
func TestLocatePassage(t *testing.T) {
	a := newApp(t, Options{})
	info, err := a.sessions.OpenPath(context.Background(), piDir+"pi-cwl__before-compaction.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	sm, err := a.debugger.Memory(context.Background(), info.Key, debug.Params{Policy: "paper", Budget: 20000, Episodes: "inferred"})
	if err != nil {
		t.Fatal(err)
	}
	if len(sm.LookBacks) == 0 {
		t.Fatal("no look-back")
	}
	lb := sm.LookBacks[0]
	for _, p := range lb.Memory.Passages {
		got, err := a.debugger.LocatePassage(context.Background(), info.Key, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Thread != 0 || got.BlockPlace != p.Where {
			t.Errorf("%s located at %+v, the recall says %+v", p.ID, got, p.Where)
		}
	}
	for _, bad := range []string{"", "D1:3", "t9:L1#0", "Lnope#0"} {
		if _, err := a.debugger.LocatePassage(context.Background(), info.Key, bad); err == nil {
			t.Errorf("%q located", bad)
		}
	}
}

// TestSessionMemoriesKeepTheNewest reads the memories of more sessions
// than are kept: the least recently used goes, never the one just read.
func TestSessionMemoriesKeepTheNewest(t *testing.T) {
	a := newApp(t, Options{})
	var keys []string
	for _, f := range []string{"pi/agent-sessions__pi-v3-small.jsonl", "pi/pi-cwl__assistant-message-with-thinking-code.json",
		"codex/claude-code-log__rollout-2026-01-02-synthetic.jsonl", "claude-code/claude-code-viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
		"swe-agent/swe-agent__gpt4-default__pydicom-1458.traj"} {
		info, err := a.sessions.OpenPath(context.Background(), "../testdata/shared/sessions/"+f)
		if err != nil {
			t.Fatal(err)
		}
		o, err := a.sessions.get(context.Background(), info.Key)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := a.debugger.memories.view(context.Background(), info.Key, o, 0); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, info.Key)
		if _, ok := a.debugger.memories.cache.Held(info.Key); !ok {
			t.Fatalf("the memory of %s, just read, is not kept", f)
		}
	}
	if n := len(a.debugger.memories.cache.Keys()); n != maxSessionMemories {
		t.Errorf("%d memories kept, want %d", n, maxSessionMemories)
	}
	if _, ok := a.debugger.memories.cache.Held(keys[0]); ok {
		t.Error("the least recently used memory is still kept")
	}
}
