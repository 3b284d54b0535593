package lexical

import (
	"testing"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/locomo"
)

func TestSearchLoCoMo(t *testing.T) {
	convs, err := locomo.ReadFile("../../testdata/shared/locomo/locomo10.json")
	if err != nil {
		t.Fatal(err)
	}
	var docs []memory.Doc
	for _, p := range convs[0].Passages() {
		docs = append(docs, memory.Doc{ID: p.ID, Text: p.Text})
	}
	x, err := New(docs)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	tests := []struct{ q, want string }{
		{"When did Caroline go to the LGBTQ support group?", "D1:3"},
		{"When did Melanie paint the lake sunrise?", "D1:14"},
	}
	for _, tt := range tests {
		hits, err := x.Search(tt.q, 5)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, h := range hits {
			found = found || h.ID == tt.want
		}
		if !found {
			t.Errorf("%q: top 5 %v lack %s", tt.q, hits, tt.want)
		}
		for i := 1; i < len(hits); i++ {
			if hits[i].Score > hits[i-1].Score {
				t.Errorf("hits not sorted: %v", hits)
			}
		}
	}
	if hits, _ := x.Search("the and of", 5); len(hits) != 0 {
		t.Errorf("stop words matched %v", hits)
	}
}

func TestStemming(t *testing.T) {
	x, err := New([]memory.Doc{{ID: "a", Text: "She was painting sunsets"}, {ID: "b", Text: "a dog barked"}})
	if err != nil {
		t.Fatal(err)
	}
	hits, _ := x.Search("paints a sunset", 2)
	if len(hits) == 0 || hits[0].ID != "a" {
		t.Errorf("stemmed search got %v", hits)
	}
}

func TestTiesAreOrderedByID(t *testing.T) {
	docs := []memory.Doc{{ID: "c", Text: "red kite"}, {ID: "a", Text: "red kite"}, {ID: "b", Text: "red kite"}}
	for run := 0; run < 5; run++ {
		x, err := New(docs)
		if err != nil {
			t.Fatal(err)
		}
		hits, _ := x.Search("kite", 2)
		if len(hits) != 2 || hits[0].ID != "a" || hits[1].ID != "b" {
			t.Fatalf("run %d: %v", run, hits)
		}
	}
}
