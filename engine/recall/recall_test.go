package recall

import (
	"context"
	"path/filepath"
	"testing"

	"ctxscope/engine/debug"
	"ctxscope/engine/ingest"
	"ctxscope/engine/memory/code"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
	"ctxscope/search/lexical"
)

const sessions = "../../testdata/shared/sessions/"

// prepare reads a shared session and prepares its main thread with
// declared episodes, or inferred ones when it declares none.
func prepare(t testing.TB, rel string) (*session.Session, *debug.Replay) {
	t.Helper()
	ss, _, err := ingest.ReadPaths([]string{filepath.Join(sessions, rel)})
	if err != nil || len(ss) == 0 {
		t.Fatalf("%s: %v", rel, err)
	}
	s := ss[0]
	for _, mode := range []string{"declared", "inferred"} {
		r, err := debug.New(context.Background(), s, debug.Params{Episodes: mode}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if mode == "inferred" || r.HasEpisodes() {
			return s, r
		}
	}
	return nil, nil
}

func TestRecoveryAtLookBacks(t *testing.T) {
	s, r := prepare(t, "pi/pi-cwl__before-compaction.jsonl")
	mem := code.ReadSession("m", s, nil)
	for _, budget := range []int{20000, 40000, 60000} {
		life, err := r.Lifecycle(debug.Params{Policy: "paper", Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Evaluate(mem, s.Threads[0], 0, life, Options{Counter: tokens.Estimator{}, Index: lexical.Build})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("τ %d: %d look-backs (%d skipped); memory %d (%.2f, coverage %.2f, %d tokens); bm25 %d (%.2f, coverage %.2f, %d tokens)",
			budget, rep.LookBacks, rep.Skipped, rep.Memory.Recovered, rep.Memory.Rate, rep.Memory.Coverage, rep.Memory.Tokens,
			rep.BM25.Recovered, rep.BM25.Rate, rep.BM25.Coverage, rep.BM25.Tokens)
		for _, ev := range rep.Events {
			for _, o := range []Outcome{ev.Memory, ev.BM25} {
				if o.Tokens > rep.RecallBudget {
					t.Errorf("request %d: %d tokens recalled, budget %d", ev.Request, o.Tokens, rep.RecallBudget)
				}
			}
		}
	}
}
