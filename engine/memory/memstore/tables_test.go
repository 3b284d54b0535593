package memstore

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"testing"
)

func TestMemoryLayers(t *testing.T) {
	s := TablesOf(openWorkspace(t))
	ctx := context.Background()
	if err := s.PutPassages(ctx, "conv-26", []Passage{{ID: "p"}}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("put into a missing set: %v", err)
	}
	if err := s.Ensure(ctx, "conv-26", "locomo"); err != nil {
		t.Fatal(err)
	}
	passages := []Passage{
		{ID: "p1", Text: "I went to a LGBTQ support group yesterday.", Speaker: "Caroline", Timestamp: "1:56 pm on 8 May, 2023", QAID: "D1:3", Session: "1"},
		{ID: "p2", Text: "That's awesome!", Speaker: "Melanie", Timestamp: "1:56 pm on 8 May, 2023", QAID: "D1:4", Session: "1"},
	}
	entities := []Entity{
		{ID: "e1", Name: "Caroline", Source: "dialog", Aliases: []string{"Caro"}, Metadata: []byte(`{"node_type":"entity"}`)},
		{ID: "e2", Name: "support group", Source: "dialog", Aliases: []string{"caro"}, Metadata: []byte(`{}`)},
	}
	relations := []Relation{{ID: "r1", Source: "e1", Target: "e2", Type: "attended", Time: "2023-05-07", Condition: "",
		Session: "1", QAID: "D1:3", PassageID: "p1", Origin: "dialog", Metadata: []byte(`{}`)}}
	contains := []Contains{{Passage: "p1", Entity: "e1", Timestamp: "1:56 pm on 8 May, 2023"}, {Passage: "p1", Entity: "e2"}}
	clusters := []Cluster{{ID: "c1", CenterText: "LGBTQ support", CenterIDs: []string{"p1"}, Metadata: []byte(`{"consistency":{"label":"x"}}`)}}
	exps := []Experience{{ID: "x1", Cluster: "c1", Type: "fact", Content: "Caroline attends a support group.", SourceQAIDs: []string{"D1:3"}, Metadata: []byte(`{}`)}}
	for name, put := range map[string]func() error{
		"passages":    func() error { return s.PutPassages(ctx, "conv-26", passages) },
		"entities":    func() error { return s.PutEntities(ctx, "conv-26", entities) },
		"relations":   func() error { return s.PutRelations(ctx, "conv-26", relations) },
		"contains":    func() error { return s.PutContains(ctx, "conv-26", contains) },
		"clusters":    func() error { return s.PutClusters(ctx, "conv-26", clusters) },
		"experiences": func() error { return s.PutExperiences(ctx, "conv-26", exps) },
	} {
		if err := put(); err != nil {
			t.Fatalf("put %s: %v", name, err)
		}
	}
	check := func(name string, got, want any, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got  %+v\n want %+v", name, got, want)
		}
	}
	gp, err := s.Passages(ctx, "conv-26")
	check("passages", gp, passages, err)
	wantEnt := []Entity{entities[0], entities[1]}
	wantEnt[0].Aliases, wantEnt[1].Aliases = []string{"caro"}, []string{} // the first writer keeps "caro"
	ge, err := s.Entities(ctx, "conv-26")
	check("entities", ge, wantEnt, err)
	gr, err := s.Relations(ctx, "conv-26", "e2")
	check("relations", gr, relations, err)
	gc, err := s.ContainedIn(ctx, "conv-26", "p1")
	check("contains", gc, contains, err)
	gcl, err := s.Clusters(ctx, "conv-26")
	check("clusters", gcl, clusters, err)
	gx, err := s.Experiences(ctx, "conv-26")
	check("experiences", gx, exps, err)

	for _, name := range []string{"CARO", "caroline", "Support Group"} {
		if _, err := s.ResolveEntity(ctx, "conv-26", name); err != nil {
			t.Errorf("resolve %q: %v", name, err)
		}
	}
	if e, _ := s.ResolveEntity(ctx, "conv-26", "caro"); e.ID != "e1" {
		t.Errorf("alias caro resolves to %q, want the first writer e1", e.ID)
	}
	if _, err := s.ResolveEntity(ctx, "conv-26", "Melanie"); !errors.Is(err, ErrNoEntity) {
		t.Errorf("unknown entity: %v", err)
	}
	sets, err := s.Sets(ctx)
	if err != nil || len(sets) != 1 || sets[0].Revision != 7 {
		t.Fatalf("sets %+v %v: want one set at revision 7 after six writes", sets, err)
	}
	passages[1].Text = "edited"
	s.PutPassages(ctx, "conv-26", passages)
	if gp, _ := s.Passages(ctx, "conv-26"); len(gp) != 2 || gp[1].Text != "edited" {
		t.Errorf("upsert: %+v", gp)
	}
	if err := s.Delete(ctx, "conv-26"); err != nil {
		t.Fatal(err)
	}
	for table, n := range memoryRows(t, s.ws) {
		if n != 0 {
			t.Errorf("%s keeps %d rows after the set was deleted", table, n)
		}
	}
}

func TestReplaceMemorySet(t *testing.T) {
	s := TablesOf(openWorkspace(t))
	ctx := context.Background()
	first := MemoryData{
		Metadata: []byte(`{"speakers":["Caroline"]}`),
		Passages: []Passage{{ID: "D1:1", Text: "hi", Speaker: "Caroline", Session: "1", Time: "2023-05-08T13:56:00Z"}},
		Entities: []Entity{{ID: "e1", Name: "Caroline", Source: "extracted", Aliases: []string{}, Metadata: []byte(`{}`)}},
		Contains: []Contains{{Passage: "D1:1", Entity: "e1", Position: 0}},
	}
	if err := s.Replace(ctx, "conv-26", "locomo", first); err != nil {
		t.Fatal(err)
	}
	second := MemoryData{
		Metadata: []byte(`{"speakers":["Melanie"]}`),
		Passages: []Passage{{ID: "D1:2", Text: "hello", Speaker: "Melanie", Session: "1"}},
		Entities: []Entity{
			{ID: "e2", Name: "Melanie", Source: "extracted", Aliases: []string{}, Metadata: []byte(`{}`)},
			{ID: "e3", Name: "pottery", Source: "reviewed", Aliases: []string{}, Metadata: []byte(`{}`)},
		},
		Relations: []Relation{{ID: "r1", Source: "e2", Target: "e3", Type: "likes", Session: "1", QAID: "D1:2", PassageID: "D1:2", Origin: "extracted", Metadata: []byte(`{}`)}},
		// Positions, not entity ids, order a passage's links.
		Contains:    []Contains{{Passage: "D1:2", Entity: "e3", Position: 0}, {Passage: "D1:2", Entity: "e2", Position: 1}},
		Clusters:    []Cluster{{ID: "c1", CenterText: "pottery", CenterIDs: []string{}, Metadata: []byte(`{}`)}},
		Experiences: []Experience{{ID: "c1.x1", Cluster: "c1", Type: "preference", Content: "Melanie likes pottery", SourceQAIDs: []string{"D1:2"}, Metadata: []byte(`{}`)}},
	}
	if err := s.Replace(ctx, "conv-26", "locomo", second); err != nil {
		t.Fatal(err)
	}
	set, got, err := s.Read(ctx, "conv-26")
	if err != nil {
		t.Fatal(err)
	}
	if set.Revision != 3 || set.Kind != "locomo" {
		t.Errorf("set %+v: want revision 3 (created at 1, two replaces)", set)
	}
	if !reflect.DeepEqual(got, second) {
		t.Errorf("read back:\n got  %+v\n want %+v", got, second)
	}
	if _, err := s.ResolveEntity(ctx, "conv-26", "Caroline"); !errors.Is(err, ErrNoEntity) {
		t.Errorf("the replaced set still resolves Caroline: %v", err)
	}
	if rev, err := s.Revision(ctx, "conv-26"); err != nil || rev != 3 {
		t.Errorf("revision %d, %v", rev, err)
	}
	if _, _, err := s.Read(ctx, "none"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown set: %v", err)
	}
	if err := s.Replace(ctx, " ", "x", MemoryData{}); err == nil {
		t.Error("an empty name was accepted")
	}
}

// TestReadIsOneState reads a set while another goroutine replaces it over
// and over: every read is one version of the set, its metadata, passages,
// entities and aliases all of the same write.
func TestReadIsOneState(t *testing.T) {
	s := TablesOf(openWorkspace(t))
	ctx := context.Background()
	version := func(v int) MemoryData {
		n := strconv.Itoa(v)
		return MemoryData{
			Metadata: []byte(`{"v":"` + n + `"}`),
			Passages: []Passage{{ID: "p1", Text: n}, {ID: "p2", Text: n}},
			Entities: []Entity{{ID: "e1", Name: "e" + n, Aliases: []string{"a" + n}, Metadata: []byte(`{}`)}},
		}
	}
	if err := s.Replace(ctx, "m", "test", version(0)); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		for v := 1; v <= 200; v++ {
			if err := s.Replace(ctx, "m", "test", version(v)); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for reads := 0; ; reads++ {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d reads during 200 writes", reads)
			return
		default:
		}
		_, d, err := s.Read(ctx, "m")
		if err != nil {
			t.Fatal(err)
		}
		var meta struct{ V string }
		if err := json.Unmarshal(d.Metadata, &meta); err != nil {
			t.Fatal(err)
		}
		v := meta.V
		if len(d.Passages) != 2 || d.Passages[0].Text != v || d.Passages[1].Text != v ||
			len(d.Entities) != 1 || d.Entities[0].Name != "e"+v || !reflect.DeepEqual(d.Entities[0].Aliases, []string{"a" + v}) {
			t.Fatalf("a read mixes versions: metadata %s, passages %+v, entities %+v", v, d.Passages, d.Entities)
		}
	}
}
