package cwl

import (
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
