package extract

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/locomo"
)

func triples(ex memory.Extraction) []string {
	var out []string
	for _, t := range ex.Triples {
		s := fmt.Sprintf("%s|%s|%s", t.Subject, t.Predicate, t.Object)
		if !t.Time.IsZero() {
			s += "|" + t.Time.String()
		}
		out = append(out, s)
	}
	return out
}

// TestOfflineLoCoMo reads real LoCoMo turns (conv-26).
func TestOfflineLoCoMo(t *testing.T) {
	at := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	tests := []struct {
		name, speaker, text string
		want                []string
	}{
		{"D1:3", "Caroline", "I went to a LGBTQ support group yesterday and it was so powerful.",
			[]string{"Caroline|went to|LGBTQ support group|7 May, 2023"}},
		{"D1:14", "Melanie", "Yeah, I painted that lake sunrise last year! It's special to me.",
			[]string{"Melanie|painted|lake sunrise|2022"}},
		{"D1:2", "Melanie", "Hey Caroline! Good to see you! I'm swamped with the kids & work.",
			[]string{"Melanie|mentions|Caroline", "Melanie|is swamped with|kids"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex, err := Offline{}.Extract(context.Background(), memory.Passage{ID: tt.name, Speaker: tt.speaker, Text: tt.text, Time: at})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(triples(ex), "\n"); got != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", got, strings.Join(tt.want, "\n"))
			}
		})
	}
}

// FuzzExtract runs the extractor on mutations of real turns.
func FuzzExtract(f *testing.F) {
	convs, err := locomo.ReadFile("../../../testdata/shared/locomo/locomo10.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range convs[0].Passages()[:40] {
		f.Add(p.Text)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ex, _ := Offline{}.Extract(context.Background(), memory.Passage{ID: "x", Speaker: "A", Text: s, Time: time.Now()})
		for _, tr := range ex.Triples {
			if tr.Subject == "" || tr.Predicate == "" || tr.Object == "" {
				t.Fatalf("empty part in %+v", tr)
			}
		}
	})
}
