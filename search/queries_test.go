package search

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctxscope/engine/memory/memstore"
)

var update = flag.Bool("update", false, "rewrite the expected totals and facets in testdata/*/queries.json")

// corpus names what a query set searches: shared session files (relative
// to the shared data directory), the first LoCoMo conversations as memory
// sets, and memory items written here.
type corpus struct {
	Files       []string              `json:"files"`
	Locomo      int                   `json:"locomo"`
	Relations   []memstore.Relation   `json:"relations"`
	Entities    []memstore.Entity     `json:"entities"`
	Experiences []memstore.Experience `json:"experiences"`
}

// queryCase is one search and what it must find. Total and Facets are
// golden values (rewritten by -update); Expect lists hits chosen by hand
// that must rank within the first Top, and Marked a text the first
// expected hit must have marked in a fragment.
type queryCase struct {
	Comment string                    `json:"comment"`
	Request Request                   `json:"request"`
	Error   bool                      `json:"error,omitempty"`
	Total   uint64                    `json:"total"`
	Top     int                       `json:"top,omitempty"`
	Expect  []wantHit                 `json:"expect,omitempty"`
	Marked  string                    `json:"marked,omitempty"`
	Facets  map[string]map[string]int `json:"facets,omitempty"`
}

func TestQuerySets(t *testing.T) {
	sets, err := filepath.Glob("testdata/*/queries.json")
	if err != nil || len(sets) == 0 {
		t.Fatalf("no query sets: %v", err)
	}
	for _, qpath := range sets {
		dir := filepath.Dir(qpath)
		t.Run(filepath.Base(dir), func(t *testing.T) { runQuerySet(t, dir) })
	}
}

func runQuerySet(t *testing.T, dir string) {
	var c corpus
	readJSON(t, filepath.Join(dir, "corpus.json"), &c)
	var cases []queryCase
	readJSON(t, filepath.Join(dir, "queries.json"), &cases)
	w := newWorkspace(t, absAll(c.Files)...)
	loadCorpusMemory(t, w, c)
	for i := range cases {
		qc := &cases[i]
		t.Run(qc.Comment, func(t *testing.T) { runCase(t, w.idx, qc) })
	}
	if *update {
		b, _ := json.MarshalIndent(cases, "", "  ")
		if err := os.WriteFile(filepath.Join(dir, "queries.json"), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runCase(t *testing.T, idx *Index, qc *queryCase) {
	req := qc.Request
	req.Facets = qc.Facets != nil || req.Facets
	if qc.Top > 0 {
		req.Size = max(req.Size, qc.Top)
	}
	res, err := idx.Search(req)
	if qc.Error {
		if err == nil {
			t.Fatalf("want an error, got %d hits", res.Total)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		qc.Total = res.Total
		if qc.Facets != nil {
			qc.Facets = facetMap(res)
		}
	}
	if res.Total != qc.Total {
		t.Errorf("total %d, want %d", res.Total, qc.Total)
	}
	if qc.Facets != nil {
		if got := facetMap(res); !equalJSON(got, qc.Facets) {
			t.Errorf("facets %v, want %v", got, qc.Facets)
		}
	}
	for k, want := range qc.Expect {
		h := findHit(res.Hits, want)
		if h == nil {
			t.Errorf("expected hit %+v not among the first %d", want, len(res.Hits))
			continue
		}
		if k == 0 && qc.Marked != "" && !marks(h, qc.Marked) {
			t.Errorf("hit %s: no fragment marks %q in %+v", h.ID, qc.Marked, h.Fragments)
		}
	}
}

// wantHit is a hit a query must find: every non-empty field must match.
type wantHit struct {
	Session string `json:"session,omitempty"`
	Set     string `json:"set,omitempty"`
	Kind    string `json:"kind,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Role    string `json:"role,omitempty"`
	Entry   string `json:"entry,omitempty"`
	Line    int    `json:"line,omitempty"`
	Speaker string `json:"speaker,omitempty"`
	Episode string `json:"episode,omitempty"`
}

// findHit returns the first hit that has every non-empty field of want.
func findHit(hits []Hit, want wantHit) *Hit {
	for i := range hits {
		h := &hits[i]
		if (want.Session == "" || h.Session == want.Session) && (want.Kind == "" || h.Kind == want.Kind) &&
			(want.Line == 0 || h.Line == want.Line) && (want.Tool == "" || h.Tool == want.Tool) &&
			(want.Role == "" || h.Role == want.Role) && (want.Entry == "" || h.Entry == want.Entry) &&
			(want.Set == "" || h.Set == want.Set) && (want.Speaker == "" || h.Speaker == want.Speaker) &&
			(want.Episode == "" || h.Episode == want.Episode) {
			return h
		}
	}
	return nil
}

// marks reports whether a fragment of h marks text (ignoring case) or a
// part of it.
func marks(h *Hit, text string) bool {
	for _, f := range h.Fragments {
		for _, m := range f.Marks {
			if strings.Contains(strings.ToLower(text), strings.ToLower(f.Text[m.Start:m.End])) {
				return true
			}
		}
	}
	return false
}

func facetMap(res *Result) map[string]map[string]int {
	out := map[string]map[string]int{}
	for name, counts := range res.Facets {
		out[name] = map[string]int{}
		for _, c := range counts {
			out[name][c.Term] = c.Count
		}
	}
	return out
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func absAll(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = filepath.Join(sharedData, f)
	}
	return out
}

// loadCorpusMemory stores the corpus's memory items and syncs the index.
func loadCorpusMemory(t *testing.T, w *workspace, c corpus) {
	ctx := context.Background()
	if c.Locomo > 0 {
		ids, by := locomoPassages(t, c.Locomo)
		putLocomo(t, w.st, ids, by, "")
	}
	if len(c.Relations)+len(c.Entities)+len(c.Experiences) > 0 {
		if err := memstore.TablesOf(w.st).Ensure(ctx, "graph", "test"); err != nil {
			t.Fatal(err)
		}
		for _, err := range []error{memstore.TablesOf(w.st).PutEntities(ctx, "graph", c.Entities), memstore.TablesOf(w.st).PutRelations(ctx, "graph", c.Relations),
			memstore.TablesOf(w.st).PutExperiences(ctx, "graph", c.Experiences)} {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := w.idx.Sync(ctx, w.st); err != nil {
		t.Fatal(err)
	}
}
