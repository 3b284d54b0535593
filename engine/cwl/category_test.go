package cwl

import (
	"math"
	"testing"

	"ctxscope/engine/session"
)

// TestToolOutputByClass checks that tool output is stacked by the class of
// the tool that produced it, and that the categories still add up to the
// input under every policy.
func TestToolOutputByClass(t *testing.T) {
	r, err := Prepare(session.BuildRequests(threadOf(v11History())), estimateLedger(), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	names := CategoryNames()
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	if len(names) != numCats {
		t.Fatalf("%d names for %d categories", len(names), numCats)
	}
	for _, pol := range Policies {
		tl, err := r.Run(RunOptions{Policy: pol, Budget: 700})
		if err != nil {
			t.Fatal(err)
		}
		last := tl.Requests[len(tl.Requests)-1]
		uncapped := tl.Requests[len(tl.Requests)-1]
		var sum int32
		for _, c := range last.Cats {
			sum += c
		}
		if math.Abs(float64(int(sum)-last.After)) > float64(numCats) {
			t.Errorf("%s: categories add up to %d, want %d", pol, sum, last.After)
		}
		if pol == PolicyNone {
			// v11 reads two files (400 tokens each) and edits twice.
			if got := uncapped.Cats[index["toolResult.read"]]; got < 800 {
				t.Errorf("read output %d, want at least 800", got)
			}
			if got := uncapped.Cats[index["toolResult.edit"]]; got < 200 {
				t.Errorf("edit output %d, want at least 200", got)
			}
			if got := uncapped.Cats[index["toolResult.search"]]; got != 0 {
				t.Errorf("search output %d, want 0", got)
			}
		}
	}
}
