package kg

import (
	"errors"
	"reflect"
	"testing"
)

// sample builds a small graph in the shape of LoCoMo sample 0, where the
// reference keeps "Mel" and "Melanie" apart.
func sample(t *testing.T) *Graph {
	t.Helper()
	g := New()
	must := func(e *Entity, err error) *Entity {
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	mel := must(g.Ensure("Melanie", Extracted))
	short := must(g.Ensure("Mel", Extracted))
	car := must(g.Ensure("Caroline", Extracted))
	race := must(g.Ensure("charity race", Extracted))
	for _, r := range []Relation{
		{Subject: mel.ID, Predicate: "ran", Object: race.ID, Passages: []string{"D2:1"}},
		{Subject: car.ID, Predicate: "greets", Object: short.ID, Passages: []string{"D1:1"}},
		{Subject: short.ID, Predicate: "ran", Object: race.ID, Passages: []string{"D2:3"}},
	} {
		if _, err := g.Relate(r); err != nil {
			t.Fatal(err)
		}
	}
	g.Link("D2:1", mel.ID)
	g.Link("D2:1", race.ID)
	g.Link("D1:1", short.ID)
	g.Link("D2:3", short.ID)
	g.Link("D2:3", mel.ID)
	return g
}

type snapshot struct {
	Entities  []Entity
	Relations []Relation
	Contains  map[string][]string
	Incident  map[string][]string
	Names     map[string]string
}

func snap(g *Graph) snapshot {
	s := snapshot{Contains: map[string][]string{}, Incident: map[string][]string{}, Names: map[string]string{}}
	for _, e := range g.Entities() {
		s.Entities = append(s.Entities, *e)
		s.Incident[e.ID] = append([]string{}, g.Incident(e.ID)...)
	}
	for _, r := range g.Relations() {
		s.Relations = append(s.Relations, *r)
	}
	for p, es := range g.contains {
		s.Contains[p] = append([]string{}, es...)
	}
	for k, v := range g.byName {
		s.Names[k] = v
	}
	return s
}

func TestMergeAndUndo(t *testing.T) {
	g := sample(t)
	before := snap(g)
	sugg := g.SuggestMerges()
	if len(sugg) != 1 || sugg[0].Reason != "short form: Mel for Melanie" {
		t.Fatalf("suggestions = %+v", sugg)
	}
	m, err := g.MergeEntities(sugg[0].Keep, sugg[0].Drop, sugg[0].Reason)
	if err != nil {
		t.Fatal(err)
	}
	mel, ok := g.Lookup("mel")
	if !ok || mel.Name != "Melanie" || !reflect.DeepEqual(mel.Aliases, []string{"Mel"}) {
		t.Fatalf("after merge, Mel resolves to %+v", mel)
	}
	if n := len(g.Incident(mel.ID)); n != 3 {
		t.Errorf("Melanie has %d relations after merge, want 3", n)
	}
	if got := g.Contains("D2:3"); len(got) != 1 {
		t.Errorf("D2:3 links %v, want one entity", got)
	}
	if err := g.Undo(m.ID); err != nil {
		t.Fatal(err)
	}
	if after := snap(g); !reflect.DeepEqual(after, before) {
		t.Errorf("undo did not restore the graph:\n got %+v\nwant %+v", after, before)
	}
}

func TestDedupAfterMerge(t *testing.T) {
	g := sample(t)
	s := g.SuggestMerges()[0]
	m, _ := g.MergeEntities(s.Keep, s.Drop, s.Reason)
	if n := g.Dedup(true); n != 1 {
		t.Fatalf("dedup removed %d, want 1 (Melanie ran charity race twice)", n)
	}
	r := g.Relations()[0]
	if !reflect.DeepEqual(r.Passages, []string{"D2:1"}) {
		t.Errorf("kept relation's passages = %v, want only its own", r.Passages)
	}
	if err := g.Undo(m.ID); err != nil {
		t.Fatalf("undo after a dedup: %v", err)
	}
	if _, ok := g.Lookup("Mel"); !ok {
		t.Error("Mel is gone after undo")
	}
}

func TestUndoOrder(t *testing.T) {
	g := New()
	a, _ := g.Ensure("Jon", Extracted)
	b, _ := g.Ensure("Jonathan", Extracted)
	c, _ := g.Ensure("Jonny", Extracted)
	m1, _ := g.MergeEntities(b.ID, a.ID, "test")
	m2, _ := g.MergeEntities(b.ID, c.ID, "test")
	if err := g.Undo(m1.ID); !errors.Is(err, ErrUndoOrder) {
		t.Fatalf("undo out of order: %v", err)
	}
	if err := g.Undo(m2.ID); err != nil {
		t.Fatal(err)
	}
	if err := g.Undo(m1.ID); err != nil {
		t.Fatal(err)
	}
	if e, _ := g.Lookup("jon"); e.ID != a.ID {
		t.Errorf("jon resolves to %v", e)
	}
	if err := g.Undo(m1.ID); err == nil {
		t.Error("undoing twice succeeded")
	}
}

func TestRelateErrors(t *testing.T) {
	g := New()
	a, _ := g.Ensure("A", Extracted)
	tests := []struct {
		name string
		r    Relation
		want error
	}{
		{"no object", Relation{Subject: a.ID, Predicate: "p", Object: "x"}, ErrNoEntity},
		{"no predicate", Relation{Subject: a.ID, Predicate: " ", Object: a.ID}, ErrEmpty},
	}
	for _, tt := range tests {
		if _, err := g.Relate(tt.r); !errors.Is(err, tt.want) {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.want)
		}
	}
	if _, err := g.Add(Entity{Name: ""}); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty name: %v", err)
	}
	if err := g.Remove("nope"); !errors.Is(err, ErrNoRelation) {
		t.Errorf("remove: %v", err)
	}
}

func TestCanonicalSuggestions(t *testing.T) {
	g := New()
	g.Ensure("The Painting Class", Extracted)
	g.Ensure("painting classes", Extracted)
	g.Ensure("pottery", Extracted)
	s := g.SuggestMerges()
	if len(s) != 1 {
		t.Fatalf("suggestions %+v", s)
	}
}

func TestRatio(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"abcd", "bcde", 0.75}, // difflib: 2*3/8
		{"Caroline", "Caroline", 1},
		{"", "", 1},
		{"abc", "xyz", 0},
		{"support group", "LGBTQ support group", 2 * 13.0 / 32},
	}
	for _, tt := range tests {
		if got := Ratio(tt.a, tt.b); got != tt.want {
			t.Errorf("Ratio(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestResolve(t *testing.T) {
	g := sample(t)
	if e := g.Resolve("charity races", 0.7); e == nil || e.Name != "charity race" {
		t.Errorf("fuzzy resolve: %+v", e)
	}
	if e := g.Resolve("MEL", 0.7); e == nil || e.Name != "Mel" {
		t.Errorf("exact resolve: %+v", e)
	}
	if e := g.Resolve("pottery class", 0.7); e != nil {
		t.Errorf("resolved an unknown name to %+v", e)
	}
}
