package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestReplayMemory replays the largest shared pi session with --memory:
// the JSON carries the recall at every look-back (each within B tokens)
// and the paper+memory variant, whose counts add up; the text says the
// same.
func TestReplayMemory(t *testing.T) {
	file := shared + "sessions/pi/pi-cwl__before-compaction.jsonl"
	code, stdout, stderr := run(t, "replay", file, "--budget", "20000", "--memory", "500", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		Memory struct {
			Policy       string `json:"policy"`
			RecallBudget int    `json:"recallBudget"`
			Reserved     int    `json:"reservedLookBacks"`
			Avoided      int    `json:"avoided"`
			LookBacks    int    `json:"lookBacks"`
			Recall       struct {
				LookBacks int `json:"lookBacks"`
				Events    []struct {
					Target []string `json:"target"`
					Memory struct {
						Tokens   int      `json:"tokens"`
						Passages []string `json:"passages"`
					} `json:"memory"`
					BM25 struct {
						Tokens int `json:"tokens"`
					} `json:"bm25"`
				} `json:"events"`
			} `json:"recall"`
		} `json:"memory"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	m := out.Memory
	if m.Policy != "paper+memory" || m.RecallBudget != 500 || m.LookBacks != m.Reserved-m.Avoided {
		t.Errorf("variant %+v", m)
	}
	if m.Recall.LookBacks == 0 || len(m.Recall.Events) != m.Recall.LookBacks {
		t.Fatalf("%d look-backs, %d events", m.Recall.LookBacks, len(m.Recall.Events))
	}
	for _, ev := range m.Recall.Events {
		if ev.Memory.Tokens > 500 || ev.BM25.Tokens > 500 || len(ev.Target) == 0 {
			t.Errorf("event %+v", ev)
		}
	}
	_, text, _ := run(t, "replay", file, "--budget", "20000", "--memory", "500")
	if !strings.Contains(text, "paper+memory") || !strings.Contains(text, "BM25 over the evicted passages") {
		t.Errorf("text output lacks the memory lines:\n%s", text)
	}
}
