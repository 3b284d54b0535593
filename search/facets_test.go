package search

import (
	"context"
	"reflect"
	"testing"

	"github.com/blevesearch/bleve/v2"
)

// bleveFacets counts r's facets the way Bleve does, for comparison.
func bleveFacets(t *testing.T, x *Index, r Request) map[string][]FacetCount {
	t.Helper()
	q, err := buildQuery(r)
	if err != nil {
		t.Fatal(err)
	}
	req := bleve.NewSearchRequestOptions(q, 0, 0, false)
	for _, f := range facetFields {
		req.AddFacet(f, bleve.NewFacetRequest(f, facetSize))
	}
	res, err := x.idx.Search(req)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]FacetCount{}
	for name, f := range res.Facets {
		counts := []FacetCount{}
		if f.Terms != nil {
			for _, tc := range f.Terms.Terms() {
				counts = append(counts, FacetCount{Term: tc.Term, Count: tc.Count})
			}
		}
		out[name] = counts
	}
	return out
}

// TestFacetColumnsCountAsBleve compares the facet counts of the column
// path with Bleve's own on the shared sessions and three LoCoMo
// conversations, for common and rare words, filters and a match-all:
// first, with the columns cached, after an import (new documents) and
// after a delete (documents gone).
func TestFacetColumnsCountAsBleve(t *testing.T) {
	files := sharedSessions(t)
	w := newWorkspace(t, files[1:]...)
	loadCorpusMemory(t, w, corpus{Locomo: 3})
	requests := []Request{
		{Query: "the"},
		{Query: "error"},
		{Query: "compaction"},
		{Query: "painting", Kind: KindPassage},
		{Query: "+speaker:Melanie"},
		{Query: `"agent-session.ts"`},
		{Query: ""},
		{Query: "zzzz-no-such-word"},
	}
	check := func(when string) {
		for _, r := range requests {
			r.Facets = true
			got, err := w.idx.Search(r)
			if err != nil {
				t.Fatalf("%s %q: %v", when, r.Query, err)
			}
			want := bleveFacets(t, w.idx, r)
			if !reflect.DeepEqual(got.Facets, want) {
				t.Errorf("%s %q:\n got %v\nwant %v", when, r.Query, got.Facets, want)
			}
		}
	}
	check("first")
	res, err := w.idx.Search(Request{Query: "the", Facets: true})
	if err != nil || len(res.Facets[FieldKind]) < 3 || len(res.Facets[FieldSpeaker]) == 0 || len(res.Facets[FieldTool]) == 0 {
		t.Fatalf("the corpus is too thin to test facets: %v %v", res.Facets, err)
	}
	check("cached")

	// New documents land in a new segment, numbered after the others:
	// columns of the earlier snapshot would not count them.
	if _, err := w.st.ImportFile(context.Background(), files[0]); err != nil {
		t.Fatal(err)
	}
	mustSync(t, w)
	check("after an import")

	sessions, err := w.st.Sessions(context.Background(), 0, 0)
	if err != nil || len(sessions) < 2 {
		t.Fatalf("sessions: %v %v", sessions, err)
	}
	if err := w.st.DeleteSession(context.Background(), sessions[0].Key); err != nil {
		t.Fatal(err)
	}
	mustSync(t, w)
	check("after a delete")
}
