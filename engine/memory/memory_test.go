package memory_test

import (
	"context"
	"ctxscope/engine/memory/embed/embedtest"
	"strings"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/extract"
	"ctxscope/engine/memory/locomo"
)

const data = "../../testdata/shared/"

func glove(t *testing.T) *embed.SIF {
	t.Helper()
	p := embedtest.Path(t)
	s, err := embed.LoadSIF(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBuildLoCoMoOffline(t *testing.T) {
	convs, err := locomo.ReadFile(data + "locomo/locomo10.json")
	if err != nil {
		t.Fatal(err)
	}
	b := &memory.Builder{Extractor: extract.Offline{}, Embedder: glove(t), Writer: cluster.Offline{}, Config: cluster.PaperConfig(), Merge: true}
	m, err := b.Build(context.Background(), "conv-26", convs[0].Passages())
	if err != nil {
		t.Fatal(err)
	}
	s := m.Stats()
	if s.Passages != 419 || s.Relations < 300 || s.Clusters < 3 || s.Experiences < 5 || len(m.Common) != 100 {
		t.Errorf("stats %+v", s)
	}
	if s.Clustered+s.Pending != 419 {
		t.Errorf("clustered %d + pending %d != 419 turns", s.Clustered, s.Pending)
	}
	// "Mel" is merged into "Melanie", reported and undoable.
	var merged bool
	for _, mg := range m.Graph.Merges() {
		if mg.Drop.Name == "Mel" {
			merged = true
			if err := m.Graph.Undo(m.Graph.Merges()[len(m.Graph.Merges())-1].ID); err != nil {
				t.Errorf("undo last merge: %v", err)
			}
		}
	}
	if !merged {
		t.Error("Mel was not merged into Melanie")
	}
	for _, r := range m.Graph.Relations() {
		for _, p := range r.Passages {
			if _, ok := m.Passage(p); !ok {
				t.Fatalf("relation %s cites unknown passage %s", r.ID, p)
			}
		}
	}
	for _, it := range m.Experience.Items() {
		limit := 120
		if len(it.Sources) > 1 {
			limit = cluster.DigestLen // a digest of several statements
		}
		if !it.Type.Valid() || len(it.Sources) == 0 || len([]rune(it.Content)) > limit {
			t.Errorf("bad item %+v", it)
		}
	}
}

func TestSessionPassages(t *testing.T) {
	s, err := ingest.ReadFile(data + "sessions/pi/agent-sessions__pi-v3-small.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ps := memory.SessionPassages(s)
	if len(ps) == 0 {
		t.Fatal("no passages from a pi session")
	}
	for _, p := range ps {
		if p.ID == "" || (p.Speaker != "user" && p.Speaker != "assistant") || strings.TrimSpace(p.Text) == "" {
			t.Errorf("bad passage %+v", p)
		}
	}
	b := &memory.Builder{Extractor: extract.Offline{}}
	m, err := b.Build(context.Background(), s.ID, ps)
	if err != nil || len(m.Passages) != len(ps) {
		t.Fatalf("build from a session: %v", err)
	}
}
