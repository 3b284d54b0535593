package cwl

import (
	"bytes"
	"encoding/json"
	"testing"

	"ctxscope/engine/cwl/vectors"
	"ctxscope/engine/tokens"
)

const vectorsPath = "../../testdata/shared/cwl-vectors/public.json"

func loadVectors(t testing.TB) *vectors.File {
	t.Helper()
	f, err := vectors.Load(vectorsPath)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// canonical re-encodes JSON so that two documents compare by value while
// keeping object key order (toolCallCounts order is part of the format).
func canonical(t testing.TB, raw []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		t.Fatalf("compact %s: %v", raw, err)
	}
	return buf.String()
}

// TestPublicVectorsPiCWL runs every pass of every public vector through
// the pi-cwl policy and compares tokens, threshold, chunkStats and view
// exactly.
func TestPublicVectorsPiCWL(t *testing.T) {
	f := loadVectors(t)
	passes := 0
	for _, v := range f.Vectors {
		msgs, err := v.Messages()
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range v.Passes {
			passes++
			got := FilterPiCWL(msgs, want.ContextWindow, &Limit{Value: float64(want.Budget)}, tokens.NewLedger(tokens.Estimator{}))
			if got.TokensBefore != want.TokensBefore || got.TokensAfter != want.TokensAfter || got.Threshold != want.Threshold {
				t.Errorf("%s budget %d: tokens %d→%d thr %d, want %d→%d thr %d", v.ID, want.Budget,
					got.TokensBefore, got.TokensAfter, got.Threshold, want.TokensBefore, want.TokensAfter, want.Threshold)
			}
			gs, _ := json.Marshal(got.ChunkStats)
			if a, b := canonical(t, gs), canonical(t, want.ChunkStats); a != b {
				t.Errorf("%s budget %d: chunkStats\n got %s\nwant %s", v.ID, want.Budget, a, b)
			}
			gv, _ := json.Marshal(got.View)
			if a, b := canonical(t, gv), canonical(t, want.View); a != b {
				t.Errorf("%s budget %d: view\n got %s\nwant %s", v.ID, want.Budget, a, b)
			}
		}
	}
	if passes != 18 {
		t.Errorf("ran %d passes, want 18", passes)
	}
}
