package debug

import (
	"context"
	"reflect"
	"testing"

	"ctxscope/engine/cwl"
)

// TestOptionsReachTheRun: each option the command line passes changes
// what a replay computes, and the zero Options replay as New does.
func TestOptionsReachTheRun(t *testing.T) {
	s := readSession(t, claudeSession)
	p := Params{Thread: 5, Counter: "estimate", Episodes: "inferred", Policy: cwl.PolicyPaper, Budget: 8000}
	edits := cwl.DefaultClassifier()
	if err := edits.Override([]byte(`{"Edit": "read", "Write": "read", "MultiEdit": "read", "Bash": "read"}`)); err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, o Options, p Params) (*cwl.Timeline, cwl.ReplaySummary) {
		t.Helper()
		r, err := NewWith(context.Background(), s, p, nil, o)
		if err != nil {
			t.Fatal(err)
		}
		var tl *cwl.Timeline
		var sum cwl.ReplaySummary
		err = r.Use(p, func(rep *cwl.Replayer, ro cwl.RunOptions) error {
			if tl, err = rep.Run(ro); err == nil {
				sum = rep.Summary(tl)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return tl, sum
	}
	base, baseSum := run(t, Options{}, p)
	if base.Cost.PriceSource == "" || base.Cost.Priced == 0 {
		t.Fatalf("the default replay is not priced from the catalog: %+v", base.Cost)
	}
	viaNew, err := New(context.Background(), s, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tl, _ := viaNew.Timeline(p); tl.Cost.Cost != base.Cost.Cost || len(tl.Evictions) != evictions(base) {
		t.Errorf("New and NewWith with no options differ: cost %v against %v, %d evictions against %d", tl.Cost.Cost, base.Cost.Cost, len(tl.Evictions), evictions(base))
	}

	flat, _ := run(t, Options{Prices: cwl.Prices{Input: 1, Output: 1}}, p)
	if flat.Cost.PriceSource == base.Cost.PriceSource || flat.Cost.Cost == base.Cost.Cost {
		t.Errorf("a flat price table is not used: %s $%v, as the catalog's %s $%v", flat.Cost.PriceSource, flat.Cost.Cost, base.Cost.PriceSource, base.Cost.Cost)
	}

	compact := p
	compact.Policy = cwl.PolicyCompact
	_, small := run(t, Options{Compact: cwl.CompactOptions{SummaryTokens: 200}}, compact)
	_, large := run(t, Options{Compact: cwl.CompactOptions{SummaryTokens: 3000}}, compact)
	if small.InputAfter >= large.InputAfter {
		t.Errorf("a 200-token summary keeps %d input tokens, a 3,000-token one %d: want fewer", small.InputAfter, large.InputAfter)
	}

	_, readOnly := run(t, Options{Tools: edits}, p)
	if reflect.DeepEqual(readOnly.EpisodeKind, baseSum.EpisodeKind) {
		t.Errorf("classing every edit and command as a read left the inferred episodes as they were: %v", baseSum.EpisodeKind)
	}
}

// evictions counts the evictions of every request of t.
func evictions(t *cwl.Timeline) int {
	n := 0
	for _, q := range t.Requests {
		n += len(q.Evictions)
	}
	return n
}
