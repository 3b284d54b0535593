package search

import (
	"context"
	"testing"
	"time"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/extract"
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/memory/memstore"
)

// TestMemoryKinds saves an offline-built LoCoMo memory through the
// workspace and searches its three kinds with the memory filters and
// facets: speaker, conversation session, time range.
func TestMemoryKinds(t *testing.T) {
	convs, err := locomo.ReadFile(sharedData + "/locomo/locomo10.json")
	if err != nil {
		t.Fatal(err)
	}
	c := convs[0]
	m, err := (&memory.Builder{Extractor: extract.Offline{}}).Build(context.Background(), c.ID, c.Passages())
	if err != nil {
		t.Fatal(err)
	}
	w := newWorkspace(t)
	if err := memstore.New(w.st).Save(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	mustSync(t, w)
	s1 := c.Sessions[0].Time
	tests := []struct {
		name string
		req  Request
		// check holds for every hit
		check func(h Hit) bool
		min   int
	}{
		{"passages by speaker", Request{Query: "support group", Mode: ModePlain, Set: c.ID, Kind: KindPassage, Speaker: "Caroline"},
			func(h Hit) bool { return h.Speaker == "Caroline" && h.DialogSession != "" && !h.Time.IsZero() }, 2},
		{"triples carry their turn's speaker and session", Request{Query: "Caroline", Mode: ModePlain, Set: c.ID, Kind: KindTriple, DialogSession: "1"},
			func(h Hit) bool { return h.DialogSession == "1" && h.Speaker != "" && h.Time.Equal(s1) }, 1},
		{"a time range keeps session 1's day", Request{Set: c.ID, After: s1.Add(-time.Hour), Before: s1.Add(time.Hour), Size: 1000},
			func(h Hit) bool { return h.Time.Equal(s1) }, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := w.idx.Search(tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) < tc.min {
				t.Fatalf("%d hits, want at least %d", len(res.Hits), tc.min)
			}
			for _, h := range res.Hits {
				if !tc.check(h) {
					t.Errorf("hit %+v", h)
				}
			}
		})
	}
	res, err := w.idx.Search(Request{Set: c.ID, Facets: true, TimeRanges: []TimeRange{
		{Name: "session 1", Start: s1, End: s1.Add(time.Minute)}, {Name: "later", Start: s1.Add(time.Minute), End: s1.AddDate(10, 0, 0)}}})
	if err != nil {
		t.Fatal(err)
	}
	count := func(facet, term string) int {
		for _, f := range res.Facets[facet] {
			if f.Term == term {
				return f.Count
			}
		}
		return 0
	}
	wantSession1 := len(c.Sessions[0].Turns)
	if got := count(FieldDialogSession, "1"); got < wantSession1 {
		t.Errorf("session 1 facet %d, want at least its %d turns", got, wantSession1)
	}
	if count(FieldSpeaker, "Caroline") == 0 || count(FieldSpeaker, "Melanie") == 0 || count(FieldKind, KindTriple) == 0 {
		t.Errorf("facets %+v", res.Facets)
	}
	if got := count("time", "session 1"); got < wantSession1 || count("time", "later") == 0 {
		t.Errorf("time facet %+v", res.Facets["time"])
	}
	if err := memstore.New(w.st).Delete(context.Background(), c.ID); err != nil {
		t.Fatal(err)
	}
	mustSync(t, w)
	if res, _ := w.idx.Search(Request{Set: c.ID}); res.Total != 0 {
		t.Errorf("%d documents left after delete", res.Total)
	}
}
