package graphviz

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// kgDir holds the MemWeaver knowledge graphs of the LoCoMo samples.
var kgDir = filepath.Join("..", "testdata", "shared", "memweaver-kg")

// kgFile is the part of kg_sample_N.json the tests read.
type kgFile struct {
	Entities []struct {
		ID       string         `json:"id"`
		Name     string         `json:"name"`
		Metadata map[string]any `json:"metadata"`
	} `json:"entities"`
	Relations []struct {
		ID       string         `json:"id"`
		Source   string         `json:"source"`
		Target   string         `json:"target"`
		Type     string         `json:"relation_type"`
		Metadata map[string]any `json:"metadata"`
	} `json:"relations"`
}

// loadKG reads sample n as a graph: entities, and passages too when
// withPassages is set, with their relations. Passage labels are cut to 24
// characters.
func loadKG(tb testing.TB, n int, withPassages bool) *Graph {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(kgDir, fmt.Sprintf("kg_sample_%d.json", n)))
	if err != nil {
		tb.Fatalf("MemWeaver's graphs are missing (testdata/shared/memweaver-kg): %v", err)
	}
	var f kgFile
	if err := json.Unmarshal(raw, &f); err != nil {
		tb.Fatal(err)
	}
	g := &Graph{Name: fmt.Sprintf("kg_sample_%d", n)}
	kept := map[string]bool{}
	for _, e := range f.Entities {
		kind, _ := e.Metadata["node_type"].(string)
		if kind == "passage" && !withPassages {
			continue
		}
		label := e.Name
		if r := []rune(label); len(r) > 24 {
			label = string(r[:23]) + "…"
		}
		a := Attrs{"kind": kind}
		for _, k := range []string{"source", "speaker", "timestamp"} {
			if v, _ := e.Metadata[k].(string); v != "" {
				a[k] = v
			}
		}
		kept[e.ID] = true
		g.Nodes = append(g.Nodes, Node{ID: e.ID, Label: label, Attrs: a})
	}
	for _, r := range f.Relations {
		if !kept[r.Source] || !kept[r.Target] {
			continue
		}
		a := Attrs{"origin": "extraction"}
		for k, v := range r.Metadata {
			switch v := v.(type) {
			case string:
				if v != "" {
					a[k] = v
				}
			case float64:
				a[k] = strconv.FormatFloat(v, 'f', -1, 64)
			}
		}
		if a["source"] == "session_review" {
			a["origin"] = "session_review"
			delete(a, "source")
		}
		delete(a, "qa_id")
		delete(a, "passage_id")
		g.Edges = append(g.Edges, Edge{From: r.Source, To: r.Target, Label: r.Type, Attrs: a})
	}
	return g
}

// entityID returns the ID of the entity named name.
func entityID(tb testing.TB, g *Graph, name string) string {
	for _, n := range g.Nodes {
		if n.Label == name && n.Attrs["kind"] == "entity" {
			return n.ID
		}
	}
	tb.Fatalf("no entity %q in %s", name, g.Name)
	return ""
}

// allKG merges every sample, passages included: the real memory of all
// ten LoCoMo conversations, about ten thousand nodes.
func allKG(tb testing.TB) *Graph {
	g := &Graph{Name: "kg_all"}
	for i := 0; i < 10; i++ {
		s := loadKG(tb, i, true)
		g.Nodes = append(g.Nodes, s.Nodes...)
		g.Edges = append(g.Edges, s.Edges...)
	}
	return g
}

// scaleFree generates a preferential-attachment graph of n nodes with
// about two edges per node, shaped like a knowledge graph's hubs.
func scaleFree(n int, seed uint64) *Graph {
	r := rand.New(rand.NewPCG(seed, 3))
	g := &Graph{Name: fmt.Sprintf("scalefree%d", n)}
	var targets []int
	for i := 0; i < n; i++ {
		g.Nodes = append(g.Nodes, Node{ID: fmt.Sprintf("v%d", i), Attrs: Attrs{"kind": "entity"}})
		for k := 0; k < 2 && i > 0; k++ {
			j := r.IntN(i)
			if len(targets) > 0 && r.IntN(2) == 0 {
				j = targets[r.IntN(len(targets))]
			}
			g.Edges = append(g.Edges, Edge{From: fmt.Sprintf("v%d", i), To: fmt.Sprintf("v%d", j)})
			targets = append(targets, i, j)
		}
	}
	return g
}
