package eval

import (
	"math"
	"strings"
	"testing"
	"time"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestF1(t *testing.T) {
	tests := []struct {
		pred, ref string
		want      float64
	}{
		{"7 May 2023", "7 May 2023", 1},
		{"7 May, 2023.", "7 may 2023", 1}, // only . , ! ? are stripped
		{"May 7", "7 May 2023", 2 * 1 * (2.0 / 3) / (1 + 2.0/3)},
		{"the the cat", "cat", 2 * 0.5 * 1 / 1.5}, // sets: {the, cat}
		{"", "x", 0},
		{"Psychology; counseling", "psychology, counseling", 0.5}, // ";" is not stripped
	}
	for _, tt := range tests {
		if got := F1(tt.pred, tt.ref); !near(got, tt.want) {
			t.Errorf("F1(%q, %q) = %v, want %v", tt.pred, tt.ref, got, tt.want)
		}
	}
}

func TestBLEU1(t *testing.T) {
	tests := []struct {
		pred, ref string
		want      float64
	}{
		{"7 May 2023", "7 May 2023", 1},
		{"May 2023", "7 May 2023", math.Exp(1 - 3.0/2)}, // precision 1, brevity penalty
		{"in May of 2023 maybe", "7 May 2023", 2.0 / 5},
		{"no", "yes", 0},
		{"", "yes", 0},
	}
	for _, tt := range tests {
		if got := BLEU1(tt.pred, tt.ref); !near(got, tt.want) {
			t.Errorf("BLEU1(%q, %q) = %v, want %v", tt.pred, tt.ref, got, tt.want)
		}
	}
}

func TestWordTokens(t *testing.T) {
	tests := []struct{ in, want string }{
		{"I don't know.", "I|do|n't|know|."},
		{"She's here, isn't she?", "She|'s|here|,|is|n't|she|?"},
		{"U.S. in 3.5 days", "U.S.|in|3.5|days"},
	}
	for _, tt := range tests {
		if got := strings.Join(WordTokens(tt.in), "|"); got != tt.want {
			t.Errorf("WordTokens(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestOfficialF1(t *testing.T) {
	tests := []struct {
		name, pred, ref string
		cat             int
		want            float64
	}{
		{"stemmed", "painting sunsets", "painted a sunset", 2, 1},
		{"multiset", "cat cat", "cat", 4, 2 * 0.5 * 1 / 1.5},
		{"multi-hop parts", "pottery, camping", "camping, pottery, painting", 1, 2.0 / 3},
		{"open-domain cut", "psychology", "Psychology; counseling certification", 3, 1},
		{"adversarial", "Not mentioned in the conversation", "", 5, 1},
		{"adversarial wrong", "self-care is important", "", 5, 0},
	}
	for _, tt := range tests {
		if got := OfficialF1(tt.pred, tt.ref, tt.cat); !near(got, tt.want) {
			t.Errorf("%s: OfficialF1 = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestScoreAndSummarize(t *testing.T) {
	qs := []Question{
		{Category: 1, Evidence: []string{"D1:1", "D2:2"}, Latency: time.Millisecond},
		{Category: 4, Evidence: []string{"D3:1"}, Latency: 3 * time.Millisecond},
		{Category: 5, Evidence: []string{"D3:1"}, Latency: 2 * time.Millisecond},
		{Category: 2, Evidence: nil}, // no evidence: left out of recall
	}
	qs[0].Score([]string{"D1:1", "D9:9"})
	qs[1].Score([]string{"D3:1"})
	qs[2].Score(nil)
	if qs[0].Recall != 0.5 || qs[0].All || !qs[1].All || qs[0].Turns != 2 {
		t.Fatalf("scores %+v", qs[:2])
	}
	s := Summarize(qs)
	if s.Overall.N != 2 || !near(s.Overall.Recall, 0.75) || !near(s.Overall.AllFound, 0.5) {
		t.Errorf("overall %+v", s.Overall)
	}
	if s.ByCategory[5].N != 1 || s.ByCategory[2].N != 0 {
		t.Errorf("by category %+v", s.ByCategory)
	}
	if s.P95 != 3*time.Millisecond || s.P50 != time.Millisecond { // nearest rank of 0, 1, 2, 3 ms
		t.Errorf("percentiles %v %v", s.P50, s.P95)
	}
}
