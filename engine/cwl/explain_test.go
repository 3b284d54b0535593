package cwl

import (
	"math/rand/v2"
	"testing"

	"ctxscope/engine/session"
)

func TestExplainAttributesEveryMissingPart(t *testing.T) {
	r, err := Prepare(session.BuildRequests(threadOf(v11History())), estimateLedger(), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	k := r.Requests() - 1
	for _, tc := range []struct {
		policy, reason string
		recorded       bool // the policy records which request removed what
	}{
		{PolicyPaper, ReasonEvicted, true},
		{PolicyPiCWL, ReasonEvicted, true},
		{PolicyTruncate, ReasonTruncated, false},
		{PolicyCompact, ReasonCompacted, true},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			o := RunOptions{Policy: tc.policy, Budget: 700}
			x, err := r.Explain(o, k)
			if err != nil {
				t.Fatal(err)
			}
			v, err := r.ContextAt(o, k)
			if err != nil {
				t.Fatal(err)
			}
			if v.Tokens != x.Tokens || len(v.Messages) != len(x.Messages) {
				t.Fatalf("Explain's view differs from ContextAt's: %d/%d tokens, %d/%d messages", x.Tokens, v.Tokens, len(x.Messages), len(v.Messages))
			}
			in := map[int]bool{}
			for _, e := range x.Messages {
				in[e.I] = true
			}
			gone := 0
			for _, rm := range x.Removed {
				if rm.Reason != tc.reason {
					t.Errorf("message %d block %d: reason %q, want %q", rm.Message, rm.Block, rm.Reason, tc.reason)
				}
				if rm.Block < 0 {
					gone++
					if in[rm.Message] {
						t.Errorf("message %d is in the input but reported removed", rm.Message)
					}
				} else if !in[rm.Message] {
					t.Errorf("block %d of message %d: its message is not in the input", rm.Block, rm.Message)
				}
				if tc.recorded && (rm.Request < 0 || rm.Request > k || rm.Level < 1) {
					t.Errorf("message %d block %d: request %d level %d", rm.Message, rm.Block, rm.Request, rm.Level)
				}
			}
			if want := r.reqs[k].Len - len(x.Messages); gone != want {
				t.Errorf("%d messages reported removed, %d missing", gone, want)
			}
			if len(x.Removed) == 0 {
				t.Error("nothing removed at a budget of 700: the test no longer exercises eviction")
			}
		})
	}
}

// TestOneContextIsReplayedAlone checks that what one request holds
// (ContextAt, Explain, ExplainWithPrevious), which replays the request's
// own context only, is what a replay of the whole session up to it holds,
// on a real session of three contexts (two compactions by pi), asked in
// an order that goes back and forth between the contexts.
func TestOneContextIsReplayedAlone(t *testing.T) {
	r := prepareFile(t, "../../testdata/shared/sessions/pi/pi-cwl__before-compaction.jsonl", Inferred)
	if len(r.ctxs) < 3 {
		t.Fatalf("%d contexts, want the session's three", len(r.ctxs))
	}
	var ks []int
	for k := range r.Requests() {
		switch {
		case k > 0 && r.reqCtx[k] != r.reqCtx[k-1]:
			ks = append(ks, k, k-1) // the first request of a context, and the last of the one before
		case k%11 == 0:
			ks = append(ks, k)
		}
	}
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(ks), func(i, j int) { ks[i], ks[j] = ks[j], ks[i] })
	asJSON := func(v any) string { return string(mustMarshal(t, v)) }
	for _, policy := range Policies {
		t.Run(policy, func(t *testing.T) {
			o := RunOptions{Policy: policy, Budget: 12_000}
			detailed, err := r.normalize(o)
			if err != nil {
				t.Fatal(err)
			}
			detailed.Detail = true
			whole := func(k int) *ContextView { // the replay of every context up to k
				pts := make([]Point, k+1)
				if err := r.runUntil(detailed, k, pts, nil); err != nil {
					t.Fatal(err)
				}
				return r.viewAt(detailed, k, pts[k].After)
			}
			for _, k := range ks {
				want := asJSON(whole(k))
				v, err := r.ContextAt(o, k)
				if err != nil {
					t.Fatal(err)
				}
				if got := asJSON(v); got != want {
					t.Fatalf("request %d (context %d): ContextAt holds\n%s\nthe whole replay\n%s", k, r.reqCtx[k], got, want)
				}
				x, prev, err := r.ExplainWithPrevious(o, k)
				if err != nil {
					t.Fatal(err)
				}
				alone, err := r.Explain(o, k)
				if err != nil {
					t.Fatal(err)
				}
				if got := asJSON(x.ContextView); got != want {
					t.Fatalf("request %d: ExplainWithPrevious holds\n%s\nthe whole replay\n%s", k, got, want)
				}
				if asJSON(x) != asJSON(alone) {
					t.Fatalf("request %d: ExplainWithPrevious explains otherwise than Explain", k)
				}
				switch {
				case k == 0 && prev != nil:
					t.Fatalf("request 0 has a previous input")
				case k > 0 && asJSON(prev) != asJSON(whole(k-1)):
					t.Fatalf("request %d (context %d, before it %d): the previous input differs from the whole replay's", k, r.reqCtx[k], r.reqCtx[k-1])
				}
			}
		})
	}
}
