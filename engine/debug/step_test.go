package debug

import (
	"context"
	"fmt"
	"testing"
)

// TestStepMatchesTimeline checks that a step of a τ drag carries what the
// view's timeline at the same policy and budget does: each request's
// kept input, its evictions and its restorations (pi-cwl restores
// episodes a later request reads again), and its requests over budget.
func TestStepMatchesTimeline(t *testing.T) {
	s := readSession(t, "../../testdata/shared/sessions/pi/pi-cwl__before-compaction.jsonl")
	p := Params{Policy: "pi-cwl", Budget: 20000, Counter: "estimate", Episodes: "inferred"}
	r, err := New(context.Background(), s, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := r.TimelineForView(p)
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.Step(p, false)
	if err != nil {
		t.Fatal(err)
	}
	columns := func(m Marks) string { return fmt.Sprint(m.K, m.Episode, m.Level) }
	marks := func(ms []Mark) string {
		var c Marks
		for _, m := range ms {
			c.add(m.Request, m.Episode, m.Level)
		}
		return columns(c)
	}
	if len(tl.Restored) == 0 {
		t.Fatal("the replay restores nothing: the test needs a session pi-cwl restores episodes of")
	}
	if columns(st.Restored) != marks(tl.Restored) {
		t.Errorf("the step's restorations differ from the timeline's (%d against %d)", len(st.Restored.K), len(tl.Restored))
	}
	if columns(st.Evictions) != marks(tl.Evictions) {
		t.Errorf("the step's evictions differ from the timeline's (%d against %d)", len(st.Evictions.K), len(tl.Evictions))
	}
	if fmt.Sprint(st.After) != fmt.Sprint(tl.After) || len(st.Unreachable.K) != len(tl.Unreachable) {
		t.Errorf("the step's kept input or requests over budget differ from the timeline's")
	}
}
