package cwl

import (
	"encoding/json"
	"math"
	"testing"

	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

func estimateLedger() *tokens.Ledger { return tokens.NewLedger(tokens.Estimator{}) }

// viewTokens recounts a view from scratch with a fresh ledger.
func viewTokens(r *Replayer, k int, v *ContextView) int {
	l := estimateLedger()
	sum := v.Summary
	for _, e := range v.Messages {
		m := r.Message(k, e.I)
		if e.Blocks == nil {
			sum += l.Message(m)
			continue
		}
		keep := map[int]bool{}
		for _, b := range e.Blocks {
			keep[b] = true
		}
		sum += l.Kept(m, func(b int) bool { return keep[b] })
	}
	return sum
}

// checkPaper replays msgs under the paper policy and checks its
// guarantees at every request.
func checkPaper(t testing.TB, msgs []*session.Message, budget int) {
	t.Helper()
	reqs := session.BuildRequests(threadOf(msgs))
	if len(reqs) == 0 {
		return
	}
	r, err := Prepare(reqs, estimateLedger(), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o := RunOptions{Policy: PolicyPaper, Budget: budget, Detail: true}
	tl, err := r.Run(o)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := r.Run(o)
	a, _ := json.Marshal(tl)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Fatal("two replays of the same input differ")
	}
	eps, g := r.EpisodesOf(0), r.GraphOf(0)
	level := make([]int, len(eps.List))
	for k, pt := range tl.Requests {
		n := pt.Messages
		for _, ev := range pt.Evictions {
			checkEviction(t, k, n, ev, eps, g, level, msgs)
			level[ev.Episode] = ev.Level
		}
		if (pt.After > budget) != (pt.Unreachable != nil) {
			t.Fatalf("request %d: %d tokens at budget %d, unreachable=%v", k, pt.After, budget, pt.Unreachable != nil)
		}
		if pt.Unreachable != nil && len(pt.Unreachable.Blockers) == 0 {
			t.Fatalf("request %d: over budget without naming a blocker", k)
		}
		var cats int32
		for _, c := range pt.Cats {
			cats += c
		}
		if math.Abs(float64(int(cats)-pt.After)) > float64(numCats) {
			t.Fatalf("request %d: categories add up to %d, want %d", k, cats, pt.After)
		}
	}
	for _, k := range []int{0, len(reqs) / 2, len(reqs) - 1} {
		checkView(t, r, o, k, eps, tl.Requests[k])
	}
}

func checkEviction(t testing.TB, k, n int, ev Eviction, eps *Episodes, g *Graph, level []int, msgs []*session.Message) {
	t.Helper()
	e := eps.List[ev.Episode]
	switch {
	case ev.Level <= level[ev.Episode]:
		t.Fatalf("request %d: %s level %d after level %d", k, e.Name, ev.Level, level[ev.Episode])
	case e.Kind == KindAct && ev.Level == LevelReasoning:
		t.Fatalf("request %d: act %s evicted at level 1", k, e.Name)
	case e.Open(n) || e.Start >= n:
		t.Fatalf("request %d: active episode %s evicted", k, e.Name)
	case e.Start < eps.Prologue:
		t.Fatalf("request %d: prologue evicted", k)
	}
	if e.Kind == KindExpl {
		for _, d := range g.Dependents(ev.Episode) {
			if eps.List[d].Start < n && level[d] < LevelFull {
				t.Fatalf("request %d: expl %s evicted while its dependent %s is in context", k, e.Name, eps.List[d].Name)
			}
		}
	}
	if e.Kind == KindUnannotated {
		for a, x := range eps.List {
			if x.Kind == KindAct && x.Start > e.Start && x.Start < n && level[a] < LevelFull {
				t.Fatalf("request %d: unannotated content evicted before act %s", k, x.Name)
			}
		}
	}
	for _, i := range ev.Messages {
		if msgs[i].IsUser() {
			t.Fatalf("request %d: user turn %d evicted", k, i)
		}
	}
}

// checkView rebuilds request k's exact input and checks that user turns
// and active episodes are whole and that the tokens match the timeline.
func checkView(t testing.TB, r *Replayer, o RunOptions, k int, eps *Episodes, pt Point) {
	t.Helper()
	v, err := r.ContextAt(o, k)
	if err != nil {
		t.Fatal(err)
	}
	whole := map[int]bool{}
	for _, e := range v.Messages {
		if e.Blocks == nil {
			whole[e.I] = true
		}
	}
	for i := range pt.Messages {
		if r.Message(k, i).IsUser() && !whole[i] {
			t.Fatalf("request %d: user turn %d not in the input whole", k, i)
		}
	}
	for _, e := range eps.List {
		if !e.Open(pt.Messages) {
			continue
		}
		for i := e.Start; i < pt.Messages; i++ {
			if !whole[i] {
				t.Fatalf("request %d: message %d of active episode %s touched", k, i, e.Name)
			}
		}
	}
	if got := viewTokens(r, k, v); got != pt.After || v.Tokens != pt.After {
		t.Fatalf("request %d: the input recounts to %d tokens (view says %d), the timeline says %d", k, got, v.Tokens, pt.After)
	}
}

// TestPaperProperties checks the paper policy on random annotated
// histories at several budgets.
func TestPaperProperties(t *testing.T) {
	for seed := range uint64(150) {
		msgs := genHistory(seed)
		for _, budget := range []int{0, 50, 300, 1000, 5000} {
			checkPaper(t, msgs, budget)
		}
	}
}

// FuzzPaperPolicy generates an annotated history from the fuzzer's seed
// and checks the paper policy's guarantees on it.
func FuzzPaperPolicy(f *testing.F) {
	for _, s := range []uint64{1, 7, 42, 1234} {
		f.Add(s, uint16(300))
	}
	f.Fuzz(func(t *testing.T, seed uint64, budget uint16) {
		checkPaper(t, genHistory(seed), int(budget))
	})
}
