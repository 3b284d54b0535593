package debug

import (
	"context"
	"math"
	"strings"
	"testing"

	"ctxscope/engine/cwl"
)

// TestCalibratedTimelineOfASubagent replays the biggest subagent thread of
// a Claude Code session with the default counter: the thread reports
// usage, so the replay is in calibrated provider tokens and says so; the
// reported input and the unlogged band are columns of the timeline; under
// policy none each input lands near the reported one.
func TestCalibratedTimelineOfASubagent(t *testing.T) {
	p := Params{Thread: 5, Episodes: "inferred", Policy: cwl.PolicyNone, Budget: 1 << 30}
	r, err := New(context.Background(), readSession(t, claudeSession), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := r.Timeline(p)
	if err != nil {
		t.Fatal(err)
	}
	if tl.CounterName != CounterCalibrated || !strings.HasPrefix(tl.Counter, "calibrated") || !strings.Contains(tl.CounterNote, "calibrated online") {
		t.Fatalf("counter %q (%q): %s", tl.CounterName, tl.Counter, tl.CounterNote)
	}
	unlogged := -1
	for c, name := range tl.Categories {
		if name == "unlogged" {
			unlogged = c
		}
	}
	if unlogged < 0 {
		t.Fatal("no unlogged category")
	}
	scored := 0
	for k := range tl.After {
		if int(tl.Cats[unlogged][k]) != tl.Unlogged[k] {
			t.Errorf("request %d: unlogged band %d, column %d", k, tl.Cats[unlogged][k], tl.Unlogged[k])
		}
		if k < 4 || tl.Reported[k] == 0 {
			continue
		}
		scored++
		if e := math.Abs(float64(tl.After[k]-tl.Reported[k])) / float64(tl.Reported[k]); e > 0.10 {
			t.Errorf("request %d: calibrated %d, reported %d (%.1f%% off)", k, tl.After[k], tl.Reported[k], 100*e)
		}
	}
	if tl.Window != 200000 {
		t.Errorf("window %d, want claude-sonnet-4-5's 200,000 from the catalog", tl.Window)
	}
	if scored < 40 || tl.Unlogged[len(tl.Unlogged)-1] < 1000 {
		t.Errorf("%d requests compared; last unlogged %d", scored, tl.Unlogged[len(tl.Unlogged)-1])
	}
	c, err := r.Context(p, 10, 200)
	if err != nil {
		t.Fatal(err)
	}
	pv := c.Provider
	if pv.Reported != tl.Reported[10] || pv.Basis == 0 || pv.CalibratedBefore != tl.Before[10] || pv.Unlogged != tl.Unlogged[10] {
		t.Errorf("provider view %+v; timeline before %d, reported %d", pv, tl.Before[10], tl.Reported[10])
	}
	var row bool
	for _, part := range c.Parts {
		row = row || (part.Group == "provider" && part.Tokens == pv.Unlogged)
	}
	if !row {
		t.Errorf("no unlogged row in the breakdown: %+v", c.Parts)
	}
}

// TestCalibratedNeedsUsage: a thread without usage replays with the
// estimator by default, and refuses the calibrated counter.
func TestCalibratedNeedsUsage(t *testing.T) {
	s := readSession(t, "../../testdata/shared/sessions/swe-agent/swe-agent__fc-replace-from-source__marshmallow-1867.traj")
	r, err := New(context.Background(), s, Params{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := r.Timeline(Params{Policy: cwl.PolicyNone, Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if tl.CounterName != "estimate" || !strings.Contains(tl.CounterNote, "no provider usage") {
		t.Errorf("counter %q: %s", tl.CounterName, tl.CounterNote)
	}
	if _, err := New(context.Background(), s, Params{Counter: CounterCalibrated}, nil); err == nil || !strings.Contains(err.Error(), "no provider usage") {
		t.Errorf("calibrated without usage: %v", err)
	}
}

// TestProviderLineAddsUp: the provider's view of a request says how its
// calibrated input is made, Overhead + Ratio × counted, and that holds
// for every request of a real pi session, those whose fitted overhead is
// negative (the estimator counting a constant more than the provider)
// among them; only a positive overhead is an unlogged part.
func TestProviderLineAddsUp(t *testing.T) {
	p := Params{Episodes: "inferred", Policy: cwl.PolicyPaper, Budget: 60_000}
	r, err := New(context.Background(), readSession(t, "../../testdata/shared/sessions/pi/pi-cwl__before-compaction.jsonl"), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	negative := 0
	for k := 0; k < r.Requests(); k += 7 {
		c, err := r.Context(p, k, 0)
		if err != nil {
			t.Fatal(err)
		}
		pv := c.Provider
		if pv.Basis == 0 {
			continue
		}
		if got := float64(pv.Overhead) + pv.Ratio*float64(c.Tokens); math.Abs(got-float64(pv.Calibrated)) > 1 {
			t.Errorf("request %d: %d + %.4f × %d = %.0f, calibrated %d", k, pv.Overhead, pv.Ratio, c.Tokens, got, pv.Calibrated)
		}
		if pv.Overhead < 0 {
			negative++
			if pv.Unlogged != 0 {
				t.Errorf("request %d: overhead %d, unlogged %d", k, pv.Overhead, pv.Unlogged)
			}
		} else if pv.Unlogged != pv.Overhead {
			t.Errorf("request %d: overhead %d, unlogged %d", k, pv.Overhead, pv.Unlogged)
		}
	}
	if negative == 0 {
		t.Error("no request with a negative overhead was looked at")
	}
}
