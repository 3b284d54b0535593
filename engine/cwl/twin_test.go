package cwl

import (
	"encoding/json"
	"sync"
	"testing"
)

// TestTwinRunsBesideItsReplayer runs a replayer's timelines and its twin's
// single-request views at once, as the debugger does while τ is dragged
// and the context panel follows, and checks each against a replayer
// prepared on its own. Under the race detector (make test) it also
// checks that runs only read what the twins share.
func TestTwinRunsBesideItsReplayer(t *testing.T) {
	const file = "../../testdata/shared/sessions/pi/pi-cwl__before-compaction.jsonl"
	r, alone := prepareFile(t, file, Inferred), prepareFile(t, file, Inferred)
	twin := r.Twin()
	asJSON := func(v any, err error) string {
		if err != nil {
			t.Error(err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Error(err)
		}
		return string(b)
	}
	type ask struct {
		o RunOptions
		k int
	}
	var asks []ask
	for _, policy := range Policies {
		for _, budget := range []int{9_000, 30_000} {
			for _, k := range []int{40, 200, r.Requests() - 1} {
				asks = append(asks, ask{RunOptions{Policy: policy, Budget: budget}, k})
			}
		}
	}
	timelines, views := make([]string, len(asks)), make([]string, len(asks))
	var wg sync.WaitGroup
	wg.Go(func() {
		for i, a := range asks {
			timelines[i] = asJSON(r.Run(a.o))
		}
	})
	wg.Go(func() {
		for i, a := range asks {
			views[i] = asJSON(twin.Explain(a.o, a.k))
		}
	})
	wg.Wait()
	for i, a := range asks {
		if want := asJSON(alone.Run(a.o)); timelines[i] != want {
			t.Errorf("%s at %d: the replayer's timeline differs from one prepared alone", a.o.Policy, a.o.Budget)
		}
		if want := asJSON(alone.Explain(a.o, a.k)); views[i] != want {
			t.Errorf("%s at %d, request %d: the twin explains otherwise than a replayer prepared alone", a.o.Policy, a.o.Budget, a.k)
		}
	}
}
