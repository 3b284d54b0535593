package retrieve

import (
	"context"
	"strings"
	"testing"
)

// TestPassageFacts checks the facts of the next-ranked turns: each stands
// for a turn the context does not hold whole, its line is in the context,
// the budget holds, and with the knob at 0 there are none.
func TestPassageFacts(t *testing.T) {
	x, conv := index(t)
	withFacts := 0
	for _, qa := range conv.QA[:40] {
		for _, depth := range []int{0, 20} {
			cfg := Budgeted(250)
			cfg.PassageShare, cfg.PassageFacts = 0.7, depth
			res, err := x.Retrieve(context.Background(), qa.Question, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if res.Tokens > 250 {
				t.Errorf("%q: %d tokens", qa.Question, res.Tokens)
			}
			whole := map[string]bool{}
			for _, it := range res.Items {
				if it.Kind == "passage" {
					whole[it.ID] = true
				}
			}
			for _, it := range res.Items {
				if it.Why.Channel != "passage" {
					continue
				}
				if depth == 0 {
					t.Fatalf("%q: a fact of the next-ranked turns with the knob at 0", qa.Question)
				}
				withFacts++
				if whole[it.Why.Via] {
					t.Errorf("%q: fact %q stands for %s, which the context holds whole", qa.Question, it.Text, it.Why.Via)
				}
				if !strings.Contains(res.Context, it.Text+"\n") {
					t.Errorf("%q: fact %q is not in the context", qa.Question, it.Text)
				}
			}
		}
	}
	if withFacts == 0 {
		t.Fatal("no question got a fact of its next-ranked turns")
	}
}

// TestEvidence checks the ceiling contexts: the gold turns whole, or only
// the facts read from them.
func TestEvidence(t *testing.T) {
	x, conv := index(t)
	withFacts := 0
	for _, qa := range conv.QA[:60] {
		turns := x.Evidence(qa.Evidence, false, LayoutSessions)
		for _, id := range qa.Evidence {
			if i, ok := x.passageAt[id]; ok && !strings.Contains(turns.Context, x.Mem.Passages[i].Text) {
				t.Errorf("%q: gold turn %s is not in its ceiling context", qa.Question, id)
			}
		}
		if turns.Tokens != x.Tokens(turns.Context) {
			t.Errorf("%q: %d tokens, the context has %d", qa.Question, turns.Tokens, x.Tokens(turns.Context))
		}
		facts := x.Evidence(qa.Evidence, true, LayoutSessions)
		for _, it := range facts.Items {
			withFacts++
			if it.Kind != "triple" || !overlaps(it.Passages, qa.Evidence) {
				t.Errorf("%q: item %s (%s) was not read from a gold turn", qa.Question, it.ID, it.Kind)
			}
			if it.Text != x.compactFact(x.relAt[it.ID]) {
				t.Errorf("%q: fact %q is not written as the sessions layout writes facts", qa.Question, it.Text)
			}
		}
	}
	if withFacts == 0 {
		t.Fatal("no gold turn has a fact")
	}
}

func overlaps(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// TestFactTokens checks the tokens passages leave for facts: with
// FactTokens set, contexts of a small budget hold facts, in the sessions
// layout's compact form ("subject predicate object (time)"), and still
// fit the budget.
func TestFactTokens(t *testing.T) {
	x, conv := index(t)
	withFacts, timed := 0, 0
	for _, qa := range conv.QA[:40] {
		cfg := Budgeted(250)
		cfg.FactTokens = 40
		res, err := x.Retrieve(context.Background(), qa.Question, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Tokens > 250 {
			t.Errorf("%q: %d tokens", qa.Question, res.Tokens)
		}
		for _, it := range res.Items {
			if it.Kind != "triple" {
				continue
			}
			withFacts++
			r := x.rels[x.relAt[it.ID]]
			want := x.tripleText(r)
			if ts := r.TimeString(); ts != "" {
				timed++
				want += " (" + ts
			}
			if strings.Contains(it.Text, " | time: ") || !strings.HasPrefix(it.Text, want) {
				t.Errorf("%q: fact line %q, want it to start %q", qa.Question, it.Text, want)
			}
			if !strings.Contains(res.Context, "\n"+it.Text+"\n") {
				t.Errorf("%q: fact %q is not a line of the context", qa.Question, it.Text)
			}
		}
	}
	if withFacts == 0 || timed == 0 {
		t.Fatalf("%d facts, %d with a time, in 40 contexts of 250 tokens with 40 for facts", withFacts, timed)
	}
}

// TestPassageLimit checks where passages stop: the budget less
// FactTokens when set, else the passages' share.
func TestPassageLimit(t *testing.T) {
	tests := []struct {
		budget, factTokens int
		share              float64
		want               int
	}{
		{250, 40, 1, 210},
		{1000, 40, 0.7, 960},
		{30, 40, 1, 0},
		{1000, 0, 0.7, 700},
		{1000, 0, 0, 700},
		{1000, 0, 1, 1000},
	}
	for _, tc := range tests {
		c := Config{Budget: tc.budget, FactTokens: tc.factTokens, PassageShare: tc.share}
		if got := c.passageLimit(); got != tc.want {
			t.Errorf("budget %d, fact tokens %d, share %.2f: passages stop at %d, want %d", tc.budget, tc.factTokens, tc.share, got, tc.want)
		}
	}
}
