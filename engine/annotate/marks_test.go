package annotate

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/store"
)

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

func mark(id int64, q, item, who string, helpful, sufficient *bool) store.Annotation {
	return store.Annotation{ID: id, Scope: "conv-26", Question: q, Item: item, Annotator: who, Helpful: helpful, Sufficient: sufficient}
}

func TestLatestKeepsTheLastMark(t *testing.T) {
	got := Latest([]store.Annotation{
		mark(1, "locomo:1", "p/D1:3", "ann", yes(), nil),
		mark(2, "locomo:1", "p/D1:3", "ann", no(), nil), // changed their mind
		mark(3, "locomo:1", "p/D1:3", "bob", yes(), nil),
		mark(4, "locomo:0", "", "ann", nil, yes()),
	})
	if len(got) != 3 || got[0].Question != "locomo:0" || got[1].ID != 2 || got[2].Annotator != "bob" {
		t.Fatalf("latest %+v", got)
	}
}

func TestAgreements(t *testing.T) {
	// Two annotators on four items of one question, and on the context of
	// two questions. Items: ann h h n n, bob h n n n -> po 3/4,
	// pe = (2/4)(1/4) + (2/4)(3/4) = 1/2, κ = 1/2. Context: both say
	// sufficient on q1, differ on q2 -> po 1/2, pe = (2/2)(1/2)+(0)(1/2) = 1/2, κ = 0.
	two := []store.Annotation{
		mark(1, "q1", "a", "ann", yes(), nil), mark(2, "q1", "b", "ann", yes(), nil),
		mark(3, "q1", "c", "ann", no(), nil), mark(4, "q1", "d", "ann", no(), nil),
		mark(5, "q1", "a", "bob", yes(), nil), mark(6, "q1", "b", "bob", no(), nil),
		mark(7, "q1", "c", "bob", no(), nil), mark(8, "q1", "d", "bob", no(), nil),
		mark(9, "q1", "e", "bob", yes(), nil), // only bob judged e: left out
		mark(10, "q1", "", "ann", nil, yes()), mark(11, "q1", "", "bob", nil, yes()),
		mark(12, "q2", "", "ann", nil, yes()), mark(13, "q2", "", "bob", nil, no()),
	}
	three := append(append([]store.Annotation(nil), two...),
		mark(20, "q1", "a", "cy", yes(), nil), mark(21, "q1", "b", "cy", yes(), nil),
		mark(22, "q1", "c", "cy", no(), nil), mark(23, "q1", "d", "cy", yes(), nil))
	tests := []struct {
		name   string
		anns   []store.Annotation
		cat    string
		method string
		units  int
		kappa  float64
		err    bool
	}{
		{"two annotators, items", two, CategoryHelpful, "cohen", 4, 0.5, false},
		{"two annotators, context", two, CategorySufficient, "cohen", 2, 0, false},
		// Items a-d by ann, bob, cy: (yyy) P=1, (yny) 1/3, (nnn) 1, (nny) 1/3 -> P̄ = 2/3;
		// p(yes) = 6/12, p(no) = 6/12 -> P̄e = 1/2; κ = 1/3.
		{"three annotators, items", three, CategoryHelpful, "fleiss", 4, 1.0 / 3, false},
		// cy judged no context: only ann and bob share the context units.
		{"three annotators, context", three, CategorySufficient, "cohen", 2, 0, false},
		{"one annotator", two[:4], CategoryHelpful, "", 0, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got CategoryAgreement
			for _, a := range Agreements(tc.anns) {
				if a.Category == tc.cat {
					got = a
				}
			}
			if (got.Error != "") != tc.err || got.Method != tc.method || got.Units != tc.units || !near(got.Kappa, tc.kappa) {
				t.Errorf("got %+v, want %s over %d units κ %.4f (error %v)", got, tc.method, tc.units, tc.kappa, tc.err)
			}
		})
	}
}

func TestQueue(t *testing.T) {
	c, err := Custom("  Where did Caroline move from? ")
	if err != nil || c.Text != "Where did Caroline move from?" || !strings.HasPrefix(c.ID, "custom:") {
		t.Fatalf("custom %+v %v", c, err)
	}
	again, _ := Custom("Where did Caroline move from?")
	q := Queue{}.Add(LoCoMo(3), c, LoCoMo(3), again, LoCoMo(0))
	if len(q) != 3 || q[0].ID != "locomo:3" || q[2].Index != 0 {
		t.Fatalf("queue %+v", q)
	}
	if q = q.Remove("locomo:3"); len(q) != 2 || q[0].ID != c.ID {
		t.Fatalf("after remove %+v", q)
	}
	if _, ok := q.Find(c.ID); !ok {
		t.Error("find")
	}
	if _, err := Custom(" "); err == nil {
		t.Error("empty question accepted")
	}
}

func TestExport(t *testing.T) {
	when := time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)
	rows := []Row{
		{Scope: "conv-26", QuestionID: "locomo:0", Question: "When did Caroline go to the LGBTQ support group?", Item: "p/D1:3",
			ItemKind: "passage", ItemText: "I went to a LGBTQ support group yesterday, \"it was\"\nso powerful.", Annotator: "ann", Helpful: yes(), Notes: "gold, <b>", Time: when},
		{Scope: "conv-26", QuestionID: "locomo:0", Item: "", ItemKind: "context", Annotator: "ann", Sufficient: no(), Time: when},
	}
	var j bytes.Buffer
	if err := WriteJSONL(&j, rows); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(j.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"notes":"gold, <b>"`) || !strings.Contains(lines[1], `"helpful":null`) {
		t.Fatalf("jsonl:\n%s", j.String())
	}
	var back Row
	if err := json.Unmarshal([]byte(lines[0]), &back); err != nil || back.ItemText != rows[0].ItemText || !*back.Helpful {
		t.Errorf("jsonl round trip %+v %v", back, err)
	}
	var c bytes.Buffer
	if err := WriteCSV(&c, rows); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || strings.Join(recs[0], ",") != strings.Join(CSVHeader, ",") || recs[1][5] != rows[0].ItemText ||
		recs[1][7] != "true" || recs[1][8] != "" || recs[2][8] != "false" || recs[2][10] != "2026-11-22T05:00:00Z" {
		t.Errorf("csv %q", recs)
	}
}
