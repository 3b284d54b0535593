package recall

import (
	"testing"

	"ctxscope/engine/debug"
	"ctxscope/engine/memory/code"
	"ctxscope/engine/tokens"
	"ctxscope/search/lexical"
)

func TestItemAt(t *testing.T) {
	it := Item{Spans: []Span{{Entered: 2, Evicted: 5, Level: 2}, {Entered: 3, Evicted: 8, Level: 4}}, Recalled: []int{9}}
	for _, c := range []struct {
		k     int
		state State
		level int
	}{
		{1, Pending, 0},
		{2, InContext, 0},
		{6, InContext, 0}, // the second block is still in
		{8, Evicted, 4},
		{9, Recovered, 4},
		{20, Recovered, 4},
	} {
		if s, l := it.At(c.k); s != c.state || l != c.level {
			t.Errorf("at %d: %s L%d, want %s L%d", c.k, s, l, c.state, c.level)
		}
	}
	stayed := Item{Spans: []Span{{Entered: 0, Evicted: -1}}}
	if s, _ := stayed.At(100); s != InContext {
		t.Errorf("a block never evicted: %s", s)
	}
	// A recall before the last eviction does not count.
	early := Item{Spans: []Span{{Entered: 0, Evicted: 10, Level: 1}}, Recalled: []int{4}}
	if s, _ := early.At(12); s != Evicted {
		t.Errorf("recalled before its eviction: %s", s)
	}
}

// TestFollowThroughReplay follows the memory of the pi session through a
// paper replay that evicts: items are evicted at the last request, and
// every item recall recovered was out of the input when it did.
func TestFollowThroughReplay(t *testing.T) {
	s, r := prepare(t, "pi/pi-cwl__before-compaction.jsonl")
	mem := code.ReadSession("m", s, nil)
	life, err := r.Lifecycle(debug.Params{Policy: "paper", Budget: 20000})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Follow(mem, s.Threads[0], 0, life, Options{Counter: tokens.Estimator{}, Index: lexical.Build})
	if err != nil {
		t.Fatal(err)
	}
	_, rels := mem.Graph.Len()
	count := map[State]int{}
	recovered := 0
	for _, it := range f.Items {
		st, level := it.At(life.Requests - 1)
		count[st]++
		if (st == Evicted || st == Recovered) && (level < 1 || level > 4) {
			t.Errorf("%s evicted at level %d", it.Relation, level)
		}
		for _, k := range it.Recalled {
			if s, _ := it.At(k); s != Recovered {
				t.Errorf("%s recalled at %d while %s", it.Relation, k, s)
			}
			recovered++
		}
		if len(it.Spans) == 0 {
			t.Errorf("%s has no span", it.Relation)
		}
	}
	t.Logf("%d items of %d relations at the last request: %v; %d recalls", len(f.Items), rels, count, recovered)
	if len(f.Items) < rels*9/10 {
		t.Errorf("%d items for %d relations", len(f.Items), rels)
	}
	if count[Evicted]+count[Recovered] == 0 || count[InContext] == 0 {
		t.Errorf("states at the last request: %v", count)
	}
	if f.Report.Memory.Recovered > 0 && recovered == 0 {
		t.Errorf("recall recovered %d look-backs but no item says so", f.Report.Memory.Recovered)
	}
}
