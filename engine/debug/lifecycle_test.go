package debug

import (
	"context"
	"testing"
)

// TestLifecycleOfAFailedRun returns a replay's error instead of reading
// the timeline the run did not make, and leaves the replay usable: it
// panicked holding the replay's lock.
func TestLifecycleOfAFailedRun(t *testing.T) {
	r, err := New(context.Background(), readSession(t, claudeSession), Params{Episodes: "inferred"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Lifecycle(Params{Policy: "no-such-policy", Budget: 20000, Episodes: "inferred"}); err == nil {
		t.Fatal("a run under an unknown policy gave a lifecycle")
	}
	life, err := r.Lifecycle(Params{Policy: "paper", Budget: 20000, Episodes: "inferred"})
	if err != nil || life.Requests == 0 {
		t.Fatalf("after the failed run: %+v, %v", life, err)
	}
}
