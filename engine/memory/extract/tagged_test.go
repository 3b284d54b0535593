package extract

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/locomo"
	"time"
)

func TestTaggedReadsFacts(t *testing.T) {
	at := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	tests := []struct {
		text string
		want []string // "subject|predicate|object|condition"
	}{
		{"I went to a LGBTQ support group yesterday and it was so powerful.", []string{"Mel|go to|LGBTQ support group|"}},
		{"Last Sunday my friends and I took a rock climbing class.", []string{"Mel|take|rock climbing class|"}},
		{"I adopted a pup from a shelter in Stamford last week.", []string{"Mel|adopt|pup|"}},
		{"I started playing acoustic guitar about five years ago.", []string{"Mel|start|playing acoustic guitar|"}},
		{"My pup Toby loves cute sweaters!", []string{"Mel|has pup named|Toby|", "Toby|love|sweater|"}},
		{"I will go to a transgender conference next month.", []string{"Mel|go to|transgender conference|planned"}},
		{"I am a counselor at the youth center.", []string{"Mel|is|counselor|"}},
		{"Last week I went on a trip to Canada.", []string{"Mel|go on|trip to Canada|"}},
		{"I went to an LGBTQ conference two days ago.", []string{"Mel|go to|LGBTQ conference|"}},
		{"I just signed up for a pottery class yesterday.", []string{"Mel|sign up for|pottery class|"}},
		{"Last Fri I went to a council meeting for adoption.", []string{"Mel|go to|council meeting for adoption|"}},
		{"I had an interview for a design internship yesterday!", []string{"Mel|have|interview for design internship|"}},
		{"I'm reading a book called 'Dune' right now.", []string{"Mel|read|book called Dune|"}},
		{"I'm writing a blog about gardening.", []string{"Mel|write|blog about gardening|"}},
		{"I started shooting a video for my band.", []string{"Mel|start|shooting video for band|"}},
		{"I just adopted this cute pup from a shelter last week.", []string{"Mel|adopt|pup from shelter|"}},
		{"I love diving into fantasy novels.", []string{"Mel|love|diving into fantasy novel|"}},
		{"We even had a picnic last week!", []string{"Mel|have|picnic|"}},
		{`I loved reading "Charlotte's Web" as a kid.`, []string{"Mel|love|reading Charlotte's Web|"}},
		{`I'm a big fan of "The Lord of the Rings".`, []string{"Mel|is|fan of The Lord of the Rings|"}},
		{"I visited a veteran's hospital.", []string{"Mel|visit|veteran's hospital|"}},
		{"I chose headphones from Sennheiser.", []string{"Mel|choose|headphone from Sennheiser|"}},
		{"I recently started a blog on car mods.", []string{"Mel|start|blog on car mods|"}},
		{"I love listening to Nils Frahm during my practice.", []string{"Mel|love|listening to Nils Frahm|"}},
		{`I'm playing a fantasy RPG called "Xenoblade Chronicles".`, []string{"Mel|play|fantasy RPG called Xenoblade Chronicles|"}},
		{"I'm a huge fan of Lord of the Rings!", []string{"Mel|is|fan of Lord of the Rings|"}},
		{"I love the connection to nature.", []string{"Mel|love|connection to nature|"}},
		{"I just got accepted for a fashion internship!", []string{"Mel|get accepted for|fashion internship|"}},
		{"I like the structure of the language.", []string{"Mel|like|structure of language|"}},
		{"I have a collection of books that take me there.", []string{"Mel|have|collection of book|"}},
		{"I've always loved caring for my pups.", []string{"Mel|love|caring for pup|"}},
		{"I met some investors from Google.", []string{"Mel|meet|investor from Google|"}},
		// Left out: hypotheticals, negations, questions, the listener's, vague objects, bare "have".
		{"I love playing pro ball.", nil},
		{"I'm crossing my fingers.", nil},
		{"I'm a mix of excited and scared.", nil},
		{"Wish I had a vacation lined up.", nil},
		{"You've built some awesome connections.", nil},
		{"Networking plays a big role in getting endorsements.", nil},
		{"I'm starting to realize that self-care is really important.", nil},
		{"I took the first step towards becoming a mom.", nil},
		{"I love the thought Nate!", nil},
		{"I like breaking up my studying into smaller parts.", nil},
		{"I would love to go to Paris.", nil},
		{"I didn't go to the party.", nil},
		{"Did you go to the museum?", nil},
		{"I love your commitment.", nil},
		{"We had tons of fun outside.", nil},
		{"I have a goal.", nil},
		{"If I go to the market, it will be fun.", nil},
		{"I went on a trip.", nil},
		{"I'm no writer like you.", nil},
		{"I love the color and texture.", nil},
		{"I'll enjoy writing them.", nil},
		{"We'd go through the fields, feeling the wind.", nil},
		{"I support organizations fighting for equal rights.", nil},
		{"I'm teaming up with a local organization.", nil},
		{"I started caring more about mental health.", nil},
		{"We found these lovely flowers.", nil},
		{"I added some sage for a nice flavor.", nil},
		{"I love this series.", nil},
		{"I love sinking into different magical worlds.", nil},
		{"I plan to return on June 5.", nil},
		{"Can't wait for the day I finally go on a trip to Japan!", nil},
	}
	for _, tc := range tests {
		ex, err := Tagged{}.Extract(context.Background(), memory.Passage{ID: "D1:1", Speaker: "Mel", Text: tc.text, Time: at})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tr := range ex.Triples {
			got = append(got, tr.Subject+"|"+tr.Predicate+"|"+tr.Object+"|"+tr.Condition)
		}
		if len(got) != len(tc.want) {
			t.Errorf("%q: got %q, want %q", tc.text, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q: got %q, want %q", tc.text, got, tc.want)
			}
		}
	}
}

func TestTaggedTypesEntities(t *testing.T) {
	ex, _ := Tagged{}.Extract(context.Background(), memory.Passage{ID: "D1:1", Speaker: "Mel",
		Text: "I went to a music festival in Boston. I love hiking. My dog Max is great."})
	want := map[string]string{"Mel": "person", "music festival in Boston": "event", "hiking": "activity", "Max": "object"}
	for name, typ := range want {
		if ex.Types[name] != typ {
			t.Errorf("type of %q: %q, want %q (all %v)", name, ex.Types[name], typ, ex.Types)
		}
	}
}

// TestJudgedSample checks the extractor against 100 triples drawn at
// random from LoCoMo conversations 5-9 and judged by hand under the rubric
// of docs/bench/memory.md (testdata/judged.json). The extractor must still
// write exactly those triples, so that the judgement stays its own: a
// change to the extractor that changes the draw fails here until the new
// draw is judged. The floor is the target, 85 facts, and at most
// 5 junk (the draw of seed 2026/1131 has 88 facts, 11 weak, 1 junk; see
// docs/bench/memory.md).
func TestJudgedSample(t *testing.T) {
	convs, err := locomo.ReadFile("../../../testdata/shared/locomo/locomo10.json")
	if err != nil {
		t.Fatalf("LoCoMo is missing (testdata/shared/locomo): %v", err)
	}
	raw, err := os.ReadFile("testdata/judged.json")
	if err != nil {
		t.Fatal(err)
	}
	var judged []Judged
	if err := json.Unmarshal(raw, &judged); err != nil {
		t.Fatal(err)
	}
	drawn := sampleTriples(convs[5:10], 100)
	if len(drawn) != len(judged) {
		t.Fatalf("the extractor's draw has %d triples, the judged sample %d: judge the new draw", len(drawn), len(judged))
	}
	verdicts := map[string]int{}
	for i, j := range judged {
		d := drawn[i]
		if d.Passage != j.Passage || d.Subject != j.Subject || d.Predicate != j.Predicate || d.Object != j.Object {
			t.Fatalf("triple %d is now (%s | %s | %s) of %s, judged was (%s | %s | %s) of %s: judge the new draw",
				i, d.Subject, d.Predicate, d.Object, d.Passage, j.Subject, j.Predicate, j.Object, j.Passage)
		}
		verdicts[j.Verdict]++
	}
	if verdicts["fact"] < 85 || verdicts["junk"] > 5 || verdicts["fact"]+verdicts["weak"]+verdicts["junk"] != 100 {
		t.Errorf("verdicts %v: want at least 85 facts and at most 5 junk", verdicts)
	}
}
