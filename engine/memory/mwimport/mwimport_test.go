package mwimport

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctxscope/engine/memory/locomo"
)

const dir = "../../../testdata/shared/memweaver-kg/"

type stats struct {
	Sample      int            `json:"sample"`
	Entities    int            `json:"entity_nodes"`
	Passages    int            `json:"passage_nodes"`
	Indexed     int            `json:"semantic_triples_indexed"`
	FromReview  int            `json:"semantic_from_session_review"`
	Contains    int            `json:"contains_structural"`
	Clusters    int            `json:"clusters"`
	Clustered   int            `json:"clustered_turns"`
	Experiences int            `json:"experience_items"`
	Types       map[string]int `json:"exp_types"`
}

// TestImportReproducesExportStats imports the ten exported graphs and
// compares every count with export_stats.json, and the totals with the
// reference's (3,738 entities, 8,667 triples, 213 clusters, 662 items).
func TestImportReproducesExportStats(t *testing.T) {
	data, err := os.ReadFile(dir + "export_stats.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []stats
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	convs, err := locomo.ReadFile("../../../testdata/shared/locomo/locomo10.json")
	if err != nil {
		t.Fatal(err)
	}
	var ent, tri, clu, exp int
	for _, w := range want {
		_, rep, err := Load(fmt.Sprintf("%skg_sample_%d.json", dir, w.Sample), fmt.Sprintf("%sclusters_sample_%d.json", dir, w.Sample), convs[w.Sample].Passages())
		if err != nil {
			t.Fatal(err)
		}
		got := stats{Sample: w.Sample, Entities: rep.Entities, Passages: rep.Passages, Indexed: rep.Indexed, FromReview: rep.FromReview,
			Contains: rep.Contains, Clusters: rep.Clusters, Clustered: rep.Clustered, Experiences: rep.Experiences, Types: rep.ExperienceByType}
		if fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("sample %d:\n got %+v\nwant %+v", w.Sample, got, w)
		}
		if rep.Aligned != rep.Passages || len(rep.Skipped) != 0 {
			t.Errorf("sample %d: %d of %d passages aligned to LoCoMo turns; skipped %v", w.Sample, rep.Aligned, rep.Passages, rep.Skipped)
		}
		ent, tri, clu, exp = ent+rep.Entities, tri+rep.Indexed, clu+rep.Clusters, exp+rep.Experiences
	}
	if ent != 3738 || tri != 8667 || clu != 213 || exp != 662 {
		t.Errorf("totals %d entities, %d triples, %d clusters, %d items; want 3738, 8667, 213, 662", ent, tri, clu, exp)
	}
}

func TestImportKeepsProvenance(t *testing.T) {
	convs, _ := locomo.ReadFile("../../../testdata/shared/locomo/locomo10.json")
	m, _, err := Load(dir+"kg_sample_0.json", dir+"clusters_sample_0.json", convs[0].Passages())
	if err != nil {
		t.Fatal(err)
	}
	car, ok := m.Graph.Lookup("Caroline")
	if !ok {
		t.Fatal("no Caroline")
	}
	found := false
	for _, rid := range m.Graph.Incident(car.ID) {
		r, _ := m.Graph.Relation(rid)
		if strings.Contains(r.Predicate, "attend") && len(r.Passages) == 1 && strings.HasPrefix(r.Passages[0], "D") {
			found = true
		}
	}
	if !found {
		t.Error("no attend relation of Caroline with a dialogue-id provenance")
	}
	for _, it := range m.Experience.Items() {
		for _, s := range it.Sources {
			if _, ok := m.Passage(s); !ok {
				t.Fatalf("experience %s source %s is not a passage", it.ID, s)
			}
		}
	}
}

func TestLoadErrors(t *testing.T) {
	tmp := t.TempDir() + "/kg.json"
	os.WriteFile(tmp, []byte("{\n\"entities\": [1]}"), 0o644)
	if _, _, err := Load(tmp, "", nil); err == nil || !strings.Contains(err.Error(), "kg.json:2:") {
		t.Errorf("error %v lacks file:line", err)
	}
	if _, _, err := Load(t.TempDir()+"/missing.json", "", nil); err == nil {
		t.Error("missing file loaded")
	}
}

// FuzzConvert decodes and converts mutations of a real excerpt.
func FuzzConvert(f *testing.F) {
	var kf kgFile
	data, _ := os.ReadFile(dir + "kg_sample_1.json")
	json.Unmarshal(data, &kf)
	kf.Entities, kf.Relations = kf.Entities[:30], kf.Relations[:30]
	seed, _ := json.Marshal(kf)
	f.Add(seed, []byte(`{"clusters":[{"id":"c","QAList":[{"id":"q"}],"ExpList":[{"type":"fact","content":"x","source_qa_ids":["q"]}]}]}`))
	f.Fuzz(func(t *testing.T, kb, cb []byte) {
		var k kgFile
		var c clustersFile
		if json.Unmarshal(kb, &k) != nil || json.Unmarshal(cb, &c) != nil {
			return
		}
		convert(&k, &c, nil)
	})
}

// TestSessionFromDialogueID checks that passages keep their session
// without a LoCoMo file when their ids are dialogue ids.
func TestSessionFromDialogueID(t *testing.T) {
	kg := `{"sample_index": 0, "entities": [
		{"id": "p1", "name": "I adopted a dog.", "metadata": {"node_type": "passage", "qa_id": "D3:5", "speaker": "Ann", "timestamp": "1:56 pm on 8 May, 2023"}},
		{"id": "p2", "name": "Hello.", "metadata": {"node_type": "passage", "qa_id": "q-77", "speaker": "Bob"}}],
		"relations": []}`
	path := t.TempDir() + "/kg.json"
	if err := os.WriteFile(path, []byte(kg), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _, err := Load(path, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Passages[0].Session != 3 || m.Passages[0].Time.IsZero() || m.Passages[1].Session != 0 {
		t.Errorf("passages %+v", m.Passages)
	}
}

// TestDeepNestingIsRefused loads a graph export nested a million levels
// deep: the load ends with an error that names the file, not with the
// process.
func TestDeepNestingIsRefused(t *testing.T) {
	kg := filepath.Join(t.TempDir(), "kg_sample_0.json")
	n := 1_000_000
	deep := `{"nodes":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
	if err := os.WriteFile(kg, []byte(deep), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := Load(kg, "", nil)
	if err == nil || !strings.Contains(err.Error(), kg) || !strings.Contains(err.Error(), "depth") {
		t.Errorf("Load: %v, want an error naming %s and the depth", err, kg)
	}
}
