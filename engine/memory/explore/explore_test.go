package explore

import (
	"context"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/extract"
	"ctxscope/engine/memory/kg"
	"ctxscope/engine/memory/retrieve"
)

func tiny(t *testing.T) *memory.Memory {
	t.Helper()
	day := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	ps := []memory.Passage{
		{ID: "D1:1", Session: 1, Speaker: "Caroline", Text: "I went to a LGBTQ support group yesterday.", Time: day, Stamp: "1:56 pm on 8 May, 2023"},
		{ID: "D1:2", Session: 1, Speaker: "Melanie", Text: "Mel here: I love pottery.", Time: day, Stamp: "1:56 pm on 8 May, 2023"},
		{ID: "D2:1", Session: 2, Speaker: "Melanie", Text: "Melanie painted a sunrise last year.", Time: day.AddDate(0, 1, 0), Stamp: "later"},
	}
	m, err := (&memory.Builder{Extractor: extract.Offline{}}).Build(context.Background(), "tiny", ps)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestEntityOf(t *testing.T) {
	m := tiny(t)
	c, ok := m.Graph.Lookup("Caroline")
	if !ok {
		t.Fatal("no Caroline")
	}
	v, err := EntityOf(m, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	var went *Relation
	for i, r := range v.Relations {
		if r.Predicate == "went to" {
			went = &v.Relations[i]
		}
	}
	if went == nil || went.Time != "7 May, 2023" || went.Gran != "day" || len(went.Passages) != 1 ||
		went.Passages[0].Speaker != "Caroline" || !strings.Contains(went.Passages[0].Text, "support group") {
		t.Fatalf("relations %+v", v.Relations)
	}
	if v.Mentions == 0 {
		t.Error("no mentions")
	}
	if _, err := EntityOf(m, "nope"); err == nil {
		t.Error("unknown entity")
	}

	// A merge shows on the kept entity, undoable while it is the latest.
	mel, _ := m.Graph.Lookup("Melanie")
	short, err := m.Graph.Add(kg.Entity{Name: "Mellie", Origin: kg.Reviewed})
	if err != nil {
		t.Fatal(err)
	}
	mg, err := m.Graph.MergeEntities(mel.ID, short.ID, "short form: Mellie for Melanie")
	if err != nil {
		t.Fatal(err)
	}
	v, _ = EntityOf(m, mel.ID)
	if len(v.Merges) != 1 || v.Merges[0].ID != mg.ID || !v.Merges[0].Undoable || v.Merges[0].Drop.Name != "Mellie" ||
		v.Aliases[len(v.Aliases)-1] != "Mellie" {
		t.Errorf("merges %+v aliases %v", v.Merges, v.Aliases)
	}
}

func TestExplain(t *testing.T) {
	cfg := cluster.PaperConfig()
	tests := []struct {
		r    cluster.Route
		want string
	}{
		{cluster.Route{Rule: cluster.RuleDBSCAN, Cluster: "c2", Round: 1, Tries: 1}, "founded c2: grouped by DBSCAN (pass 1, cosine distance ≤ 0.30) and the group passed the coherence check"},
		{cluster.Route{Rule: cluster.RuleDBSCAN, Cluster: "c3", Round: 2, Eps: 0.7, Tries: 1}, "founded c3: grouped by DBSCAN (pass 2, cosine distance ≤ 0.70) and the group passed the coherence check"},
		{cluster.Route{Rule: cluster.RuleHigh, Cluster: "c3", Best: "c3", Sim: 0.861, Tries: 2}, "joined c3 directly: similarity 0.86 to its centre ≥ 0.80 (decision 2 for this turn)"},
		{cluster.Route{Rule: cluster.RuleRouter, Cluster: "c5", Best: "c4", Sim: 0.62, Candidates: []string{"c4", "c5"}},
			"joined c5: best similarity 0.62 (to c4) between 0.50 and 0.80, and the router chose c5 among c4, c5"},
		{cluster.Route{Rule: cluster.RuleRouterNone, Best: "c4", Sim: 0.55, Candidates: []string{"c4"}}, "pending: best similarity 0.55 (to c4) between 0.50 and 0.80, but the router chose none of c4"},
		{cluster.Route{Rule: cluster.RuleLow, Best: "c1", Sim: 0.2}, "pending: best similarity 0.20 (to c1) below 0.50"},
		{cluster.Route{Rule: cluster.RuleLow}, "pending: there was no cluster yet"},
		{cluster.Route{Rule: cluster.RuleNoise, Round: 2}, "pending: DBSCAN pass 2 found no group for it"},
		{cluster.Route{Rule: cluster.RuleInconsistent}, "pending: every DBSCAN group it was in failed the coherence check"},
	}
	for _, tc := range tests {
		if got := Explain(tc.r, cfg); got != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.r.Rule, got, tc.want)
		}
	}
}

func TestTimelineAndGold(t *testing.T) {
	m := tiny(t)
	tl := TimelineOf(m)
	if len(tl.Sessions) != 2 || tl.Sessions[0].Passages != 2 || tl.Sessions[1].N != 2 || tl.ByGran["day"] == 0 || tl.First.IsZero() {
		t.Errorf("timeline %+v", tl)
	}
	p2, _ := m.Passage("D2:1")
	res := &retrieve.Result{Items: []retrieve.Item{
		{Kind: "triple", ID: "r1", Passages: []string{"D1:1"}},
		{Kind: "passage", ID: "D2:1", Passages: []string{"D2:1"}},
	}, Context: "Facts:\nsomeone did something\n" + p2.Text + "\n"}
	got := Gold(m, res, []string{"D1:1", "D2:1", "D1:2"})
	// D1:1 is only pointed to by a triple: its words are not in the
	// context, so it is a miss.
	if got[0].Hit || !got[0].Pointed || got[0].Via[0] != "triple:r1" || !got[1].Hit || got[1].Pointed || got[2].Hit || got[2].Pointed || got[2].Passage.Speaker != "Melanie" {
		t.Errorf("gold %+v", got)
	}
}

func TestFindEntities(t *testing.T) {
	m := tiny(t)
	got := FindEntities(m, "mel", 10)
	if len(got) == 0 || got[0].Name != "Melanie" {
		t.Fatalf("find mel: %+v", got)
	}
	if got := FindEntities(m, "caroline", 1); len(got) != 1 || got[0].Name != "Caroline" {
		t.Errorf("exact: %+v", got)
	}
	if got := FindEntities(m, "  ", 10); len(got) != 0 {
		t.Errorf("blank: %+v", got)
	}
}
