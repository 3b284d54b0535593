package code

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/memory"
	"ctxscope/engine/memory/kg"
	"ctxscope/engine/session"
)

const sessions = "../../../testdata/shared/sessions/"

// sharedSessions are the real sessions the issue names, one per format
// with tool use.
var sharedSessions = []string{
	"pi/pi-cwl__before-compaction.jsonl",
	"claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
	"codex/claude-code-log__rollout-2026-01-02-synthetic.jsonl",
	"openhands/openhands__runtime-traj-basic_gui_mode.json",
	"swe-agent/swe-agent__gpt4-default__pydicom-1458.traj",
}

func readShared(t testing.TB, rel string) *session.Session {
	t.Helper()
	ss, _, err := ingest.ReadPaths([]string{filepath.Join(sessions, rel)})
	if err != nil || len(ss) == 0 {
		t.Fatalf("%s: %v", rel, err)
	}
	return ss[0]
}

// TestSharedSessionsMakeAGraphOfTheWork reads the shared real sessions:
// every relation is timed when its entries are, points at passages of the
// memory, and no entity is a speaker or carries markup.
func TestSharedSessionsMakeAGraphOfTheWork(t *testing.T) {
	for _, rel := range sharedSessions {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			s := readShared(t, rel)
			m := ReadSession("m", s, nil)
			checkMemory(t, m)
			ents, rels := m.Graph.Len()
			if rels == 0 {
				t.Fatalf("no relations from %d passages", len(m.Passages))
			}
			t.Logf("%d passages, %d entities, %d relations; %s", len(m.Passages), ents, rels, predicateCounts(m.Graph))
		})
	}
}

// checkMemory holds for every session memory.
func checkMemory(t *testing.T, m *memory.Memory) {
	t.Helper()
	ids := map[string]bool{}
	for _, p := range m.Passages {
		if ids[p.ID] {
			t.Errorf("passage id %q twice", p.ID)
		}
		ids[p.ID] = true
		if _, ok := ParseRef(p.ID); !ok {
			t.Errorf("passage id %q is no ref", p.ID)
		}
		if len(p.Text) > chunkBytes+200 {
			t.Errorf("passage %s holds %d bytes", p.ID, len(p.Text))
		}
	}
	snap := m.Graph.Snapshot()
	for _, e := range snap.Entities {
		switch {
		case e.Type == "":
			t.Errorf("entity %q has no type", e.Name)
		case e.Name == "user" || e.Name == "assistant":
			t.Errorf("speaker entity %q", e.Name)
		case strings.ContainsAny(e.Name, "<>") && e.Type != TypeError && e.Type != TypeSearch && e.Type != TypeCommand && e.Type != TypeTask:
			t.Errorf("markup in entity %q (%s)", e.Name, e.Type)
		}
	}
	for _, r := range snap.Relations {
		if len(r.Passages) == 0 {
			t.Errorf("relation %s %s has no passages", r.ID, r.Predicate)
		}
		for _, p := range r.Passages {
			if !ids[p] {
				t.Errorf("relation %s points at unknown passage %q", r.ID, p)
			}
		}
		if p, _ := m.Passage(r.Passages[0]); p != nil && !p.Time.IsZero() && r.Time.IsZero() {
			t.Errorf("relation %s has no time though its passage does", r.ID)
		}
	}
}

func predicateCounts(g *kg.Graph) string {
	n := map[string]int{}
	for _, r := range g.Snapshot().Relations {
		n[r.Predicate]++
	}
	var keys []string
	for k := range n {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return n[keys[i]] > n[keys[j]] })
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+" "+strconv.Itoa(n[k]))
	}
	return strings.Join(parts, ", ")
}
