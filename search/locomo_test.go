package search

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"ctxscope/engine/memory/memstore"
	"ctxscope/engine/store"
)

// locomoSample is one LoCoMo conversation as locomo10.json holds it.
type locomoSample struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
}

type locomoTurn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

// locomoPassages reads the first n conversations of LoCoMo (all when n <=
// 0) as memory passages, one per dialogue turn, by sample id. Image turns
// get their caption in front, as MemWeaver writes them.
func locomoPassages(t testing.TB, n int) (ids []string, bySample map[string][]memstore.Passage) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(sharedData, "locomo/locomo10.json"))
	if err != nil {
		t.Fatal(err)
	}
	var samples []locomoSample
	if err := json.Unmarshal(raw, &samples); err != nil {
		t.Fatal(err)
	}
	if n > 0 && n < len(samples) {
		samples = samples[:n]
	}
	bySample = map[string][]memstore.Passage{}
	for _, s := range samples {
		ids = append(ids, s.SampleID)
		bySample[s.SampleID] = samplePassages(t, s)
	}
	return ids, bySample
}

func samplePassages(t testing.TB, s locomoSample) []memstore.Passage {
	var sessions []int
	for k := range s.Conversation {
		if num, ok := strings.CutPrefix(k, "session_"); ok && !strings.Contains(num, "_") {
			if i, err := strconv.Atoi(num); err == nil {
				sessions = append(sessions, i)
			}
		}
	}
	sort.Ints(sessions)
	var out []memstore.Passage
	for _, i := range sessions {
		var turns []locomoTurn
		var when string
		key := "session_" + strconv.Itoa(i)
		if err := json.Unmarshal(s.Conversation[key], &turns); err != nil {
			t.Fatalf("%s %s: %v", s.SampleID, key, err)
		}
		json.Unmarshal(s.Conversation[key+"_date_time"], &when)
		for _, tu := range turns {
			text := tu.Text
			if tu.BlipCaption != "" {
				text = "[Image: " + tu.BlipCaption + "] " + text
			}
			out = append(out, memstore.Passage{ID: tu.DiaID, Text: text, Speaker: tu.Speaker, Timestamp: when, QAID: tu.DiaID, Session: strconv.Itoa(i)})
		}
	}
	return out
}

// putLocomo stores LoCoMo conversations as memory sets named after their
// sample ids, with the given suffix.
func putLocomo(t testing.TB, st *store.Store, ids []string, bySample map[string][]memstore.Passage, suffix string) {
	t.Helper()
	ctx := context.Background()
	for _, id := range ids {
		name := id + suffix
		if err := memstore.TablesOf(st).Ensure(ctx, name, "locomo"); err != nil {
			t.Fatal(err)
		}
		if err := memstore.TablesOf(st).PutPassages(ctx, name, bySample[id]); err != nil {
			t.Fatal(err)
		}
	}
}
