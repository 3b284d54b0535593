package cwl

import (
	"strings"
	"testing"

	"ctxscope/engine/session"
)

func vectorMessages(t *testing.T, id string) []*session.Message {
	t.Helper()
	msgs, err := loadVectors(t).Messages(id)
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// TestPaperDivergences runs the paper policy on public vectors where the
// paper and the reference differ (cwl-reference.md §2.11).
func TestPaperDivergences(t *testing.T) {
	t.Run("V4 oldest act first", func(t *testing.T) {
		res := FilterPaper(vectorMessages(t, "V4"), 400000, &Limit{Value: 800}, estimateLedger())
		if len(res.ChunkStats) == 0 || res.ChunkStats[0].ChunkName != "a1" {
			t.Fatalf("first chunk %+v, want a1 (the reference strips e1)", res.ChunkStats)
		}
		if res.TokensAfter > 800 {
			t.Errorf("tokensAfter %d over budget", res.TokensAfter)
		}
	})
	t.Run("V2 description is the trace", func(t *testing.T) {
		msgs := vectorMessages(t, "V2")
		res := FilterPaper(msgs, 400000, &Limit{Value: 1}, estimateLedger())
		var e1 *ChunkStats
		for i := range res.ChunkStats {
			if res.ChunkStats[i].ChunkName == "e1" {
				e1 = &res.ChunkStats[i]
			}
		}
		if e1 == nil || !e1.FullyRemoved {
			t.Fatalf("e1 not fully removed: %+v", res.ChunkStats)
		}
		found := false
		for _, v := range res.View {
			m := msgs[v.I]
			if m.Role == session.RoleTool && strings.HasPrefix(m.Blocks[0].ResultText(), "end [expl] e1 \u2014 ") {
				found = true
			}
		}
		if !found {
			t.Error("e1's end result (its description) is not in the view")
		}
	})
	t.Run("V7 gaps go after the acts", func(t *testing.T) {
		msgs := vectorMessages(t, "V7")
		res := FilterPaper(msgs, 400000, &Limit{Value: 1}, estimateLedger())
		if res.TokensAfter >= 1148 {
			t.Errorf("tokensAfter %d, want below the reference's 1148: the gap is unannotated, not immune", res.TokensAfter)
		}
		if res.View[1].I != 1 || res.View[2].I != 2 || res.View[1].Blocks != nil {
			t.Errorf("the prologue changed: %+v", res.View[:3])
		}
	})
}

// TestUnreachableNamesBlocker replays V5 (e1 held by the open a1).
func TestUnreachableNamesBlocker(t *testing.T) {
	msgs := vectorMessages(t, "V5")
	msgs = append(msgs, &session.Message{Role: session.RoleAssistant, Blocks: []session.Block{{Type: session.BlockText, Text: "next"}}})
	r, err := Prepare(session.BuildRequests(threadOf(msgs)), estimateLedger(), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, pol := range []string{PolicyPaper, PolicyPiCWL} {
		tl, err := r.Run(RunOptions{Policy: pol, Budget: 100})
		if err != nil {
			t.Fatal(err)
		}
		un := tl.Requests[len(tl.Requests)-1].Unreachable
		if un == nil {
			t.Fatalf("%s: last request not reported over budget", pol)
		}
		eps := r.EpisodesOf(0).List
		kinds := map[string]string{}
		for _, b := range un.Blockers {
			if b.Episode >= 0 {
				kinds[eps[b.Episode].Name] = b.Kind
				if b.Kind == BlockDependency && (len(b.By) != 1 || eps[b.By[0]].Name != "a1") {
					t.Errorf("%s: e1 held by %v, want a1", pol, b.By)
				}
			}
		}
		if kinds["a1"] != BlockActive || kinds["e1"] != BlockDependency {
			t.Errorf("%s: blockers %v, want a1 active and e1 dependency", pol, kinds)
		}
	}
}

func TestUnreachableDescribe(t *testing.T) {
	eps := []Episode{{Name: "e1"}, {Name: "a1"}}
	u := &Unreachable{Over: 5, Protected: 3, Blockers: []Blocker{{Kind: BlockProtected, Episode: -1}, {Kind: BlockActive, Episode: 1}, {Kind: BlockDependency, Episode: 0, By: []int{1}}}}
	want := "5 tokens over budget; 3 tokens the policy never evicts (user turns, system prompts, prologue); a1 is still open; e1 is held by a1"
	if got := u.Describe(eps); got != want {
		t.Errorf("Describe = %q", got)
	}
}
