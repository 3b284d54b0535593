package memstore

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/embed/embedtest"
	"ctxscope/engine/memory/extract"
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/memory/mwimport"
)

const data = "../../../testdata/shared"

var (
	convsOnce sync.Once
	convs     []*locomo.Conversation
	convsErr  error
)

func conversations(t *testing.T) []*locomo.Conversation {
	t.Helper()
	convsOnce.Do(func() { convs, convsErr = locomo.ReadFile(data + "/locomo/locomo10.json") })
	if convsErr != nil {
		t.Fatal(convsErr)
	}
	return convs
}

// built returns the offline memory of conversation 1 with its experience
// layer (clusters, items, pending units and routing decisions).
func built(t *testing.T) *memory.Memory {
	t.Helper()
	emb, err := embed.LoadSIF(embedtest.Path(t))
	if err != nil {
		t.Fatal(err)
	}
	c := conversations(t)[1]
	b := &memory.Builder{Extractor: extract.Offline{}, Embedder: emb, Writer: cluster.Offline{}, Config: cluster.PaperConfig(), Merge: true}
	m, err := b.Build(context.Background(), c.ID, c.Passages())
	if err != nil {
		t.Fatal(err)
	}
	m.From = memory.Origin{Kind: "locomo", Path: "locomo10.json", Sample: 1}
	return m
}

// same fails the test unless got and want hold the same memory.
func same(t *testing.T, got, want *memory.Memory) {
	t.Helper()
	checks := []struct {
		what      string
		got, want any
	}{
		{"graph", got.Graph.Snapshot(), want.Graph.Snapshot()},
		{"passages", got.Passages, want.Passages},
		{"clusters", got.Experience.Clusters, want.Experience.Clusters},
		{"pending", got.Experience.Pending, want.Experience.Pending},
		{"routes", got.Experience.Routes, want.Experience.Routes},
		{"common", got.Common, want.Common},
		{"speakers", got.Speakers, want.Speakers},
		{"source", got.Source, want.Source},
		{"from", got.From, want.From},
		{"stats", got.Stats(), want.Stats()},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s differs after the round trip", c.what)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	m := built(t)
	if len(m.Experience.Clusters) == 0 || len(m.Experience.Routes) == 0 || m.Stats().Merges == 0 {
		t.Fatalf("the test memory should exercise every layer: %+v, %d routes", m.Stats(), len(m.Experience.Routes))
	}
	ctx := context.Background()
	ws := openWorkspace(t)
	st := New(ws)
	if err := st.Save(ctx, m); err != nil {
		t.Fatal(err)
	}
	got, err := st.Load(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	same(t, got, m)
	if ids, _ := st.List(ctx); !reflect.DeepEqual(ids, []string{m.ID}) {
		t.Errorf("list %v", ids)
	}

	// The workspace's own view of the set: names resolve, passages keep
	// their dialogue ids and times.
	if _, err := TablesOf(ws).ResolveEntity(ctx, m.ID, m.Speakers[0]); err != nil {
		t.Errorf("resolve speaker: %v", err)
	}
	ps, _ := TablesOf(ws).Passages(ctx, m.ID)
	if len(ps) != len(m.Passages) || ps[0].QAID != "D1:1" || ps[0].Time == "" {
		t.Errorf("stored passages: %d, first %+v", len(ps), ps[0])
	}

	// A merge undone after a reload restores the memory as it was before
	// the merge; saving again keeps the undo.
	merges := got.Graph.Merges()
	last := merges[len(merges)-1]
	if err := got.Graph.Undo(last.ID); err != nil {
		t.Fatal(err)
	}
	if err := st.Save(ctx, got); err != nil {
		t.Fatal(err)
	}
	again, err := st.Load(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := again.Graph.Entity(last.Drop.ID); !ok || again.Stats().Merges != m.Stats().Merges-1 {
		t.Errorf("undo did not survive a save: entity %s back? merges %d", last.Drop.ID, again.Stats().Merges)
	}

	if err := st.Delete(ctx, m.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Load(ctx, m.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("load after delete: %v", err)
	}
	if err := st.Delete(ctx, m.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("delete twice: %v", err)
	}
	if err := st.Save(ctx, &memory.Memory{}); err == nil {
		t.Error("saved a memory without an id")
	}
}

// TestRoundTripImported stores MemWeaver's exported memory of sample 0:
// LLM predicates, review triples without passages, times that do not
// normalize.
func TestRoundTripImported(t *testing.T) {
	c := conversations(t)[0]
	dir := data + "/memweaver-kg"
	m, _, err := mwimport.Load(filepath.Join(dir, "kg_sample_0.json"), filepath.Join(dir, "clusters_sample_0.json"), c.Passages())
	if err != nil {
		t.Fatal(err)
	}
	m.ID, m.From = "imported-"+c.ID, memory.Origin{Kind: "memweaver", Path: dir}
	ctx := context.Background()
	st := New(openWorkspace(t))
	if err := st.Save(ctx, m); err != nil {
		t.Fatal(err)
	}
	got, err := st.Load(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	same(t, got, m)
	texts := 0
	for _, r := range got.Graph.Relations() {
		if r.TimeText != "" {
			texts++
		}
	}
	if texts == 0 {
		t.Error("no relation kept a time that does not normalize: the test does not cover them")
	}
}

// TestRoutesExplainMembership checks the routing record against the
// layer: each member's last decision names its cluster, each pending
// unit's names none.
func TestRoutesExplainMembership(t *testing.T) {
	m := built(t)
	last := m.Experience.LastRoutes()
	for _, c := range m.Experience.Clusters {
		for _, id := range c.Members {
			if r := last[id]; r.Cluster != c.ID {
				t.Errorf("member %s of %s: last route %+v", id, c.ID, r)
			}
		}
	}
	for _, id := range m.Experience.Pending {
		if r, ok := last[id]; !ok || r.Cluster != "" {
			t.Errorf("pending %s: last route %+v", id, r)
		}
	}
}
