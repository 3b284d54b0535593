package extract

import (
	"context"
	"strings"
	"testing"

	"ctxscope/engine/memory"
)

// FuzzTagged: any text extracts without a panic, and every triple has a
// subject, a predicate and an object, none of them only white space.
func FuzzTagged(f *testing.F) {
	for _, s := range []string{"I went to a LGBTQ support group yesterday.", "My dog Max", "[Image: x] I'm a fan of yoga", "I've", "", "?!", "I I I to to a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ex, err := Tagged{}.Extract(context.Background(), memory.Passage{ID: "p", Speaker: "S", Text: text})
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range ex.Triples {
			if strings.TrimSpace(tr.Subject) == "" || strings.TrimSpace(tr.Predicate) == "" || strings.TrimSpace(tr.Object) == "" {
				t.Fatalf("empty part in %+v", tr)
			}
		}
	})
}
