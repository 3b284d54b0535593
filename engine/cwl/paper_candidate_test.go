package cwl

import (
	"testing"

	"ctxscope/engine/session"
)

// TestCandidateIsTheOldestEligible checks the paper policy's choice of
// the next episode to evict, which looks for acts among the acts alone,
// against the plain reading of the rule: the first closed act still in
// context, scanning every episode oldest first, else the first eligible
// expl episode or unannotated run. It compares the two before every
// request and after every level applied, on random histories with their
// declared and their inferred episodes, at several budgets.
func TestCandidateIsTheOldestEligible(t *testing.T) {
	for seed := range uint64(120) {
		msgs := genHistory(seed)
		p := NewPlan(msgs, nil, estimateLedger(), nil)
		for mode, eps := range map[string]*Episodes{"declared": DeclaredEpisodes(p), "inferred": InferEpisodes(p)} {
			graph, err := BuildGraph(eps)
			if err != nil {
				t.Fatal(err)
			}
			for _, budget := range []int{0, 50, 300, 1000} {
				run := newPaperRun(p, eps, graph)
				checked := 0
				check := func(n int) {
					checked++
					if got, want := run.candidate(n), candidateByScan(run, n); got != want {
						t.Fatalf("seed %d, %s episodes, τ %d, %d messages: candidate %d, the scan finds %d", seed, mode, budget, n, got, want)
					}
				}
				for n := 1; n <= len(msgs); n++ {
					if msgs[n-1].Role == session.RoleAssistant {
						continue // requests end before an assistant message
					}
					check(n)
					run.request(n, budget, func(int, int, int) { check(n) })
				}
				if checked == 0 {
					t.Fatalf("seed %d: nothing checked", seed)
				}
			}
		}
	}
}

// candidateByScan is paperRun.candidate as the rule reads, one scan over
// every episode not fully evicted.
func candidateByScan(r *paperRun, n int) int {
	other := -1
	for u := range r.eps {
		e := &r.eps[u]
		if e.Start >= n {
			break
		}
		if r.level[u] >= LevelFull || e.ClosedAt < 0 || e.ClosedAt >= n {
			continue
		}
		switch e.Kind {
		case KindAct:
			return u
		case KindExpl:
			if other < 0 && r.heldBy(u, n) < 0 {
				other = u
			}
		default:
			if other < 0 && r.actAfter(e.Start, n) < 0 {
				other = u
			}
		}
	}
	return other
}
