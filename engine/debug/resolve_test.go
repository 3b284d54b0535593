package debug

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
)

// TestResolve checks the defaults Resolve fills in, and what it prepares
// to find them: declared episodes for a thread that declares some (the
// demo), inferred ones for one that may declare some but has none, and
// no declared replay at all for one that cannot; the default budget from
// the uncapped input; what the caller asked for kept as it is.
func TestResolve(t *testing.T) {
	demo, err := filepath.Glob("../../app/demo/*.jsonl")
	if err != nil || len(demo) == 0 {
		t.Fatalf("%d demo sessions: %v", len(demo), err)
	}
	declaring := readSession(t, demo[0])
	plain := readSession(t, claudeSession)
	for _, tc := range []struct {
		name     string
		p        Params
		declares bool
		session  int // 0: the demo, 1: the Claude Code session
		episodes string
		prepared []string // the episode modes prepared, in order
		budget   int      // 0: DefaultBudget of the uncapped input
	}{
		{"declared", Params{Counter: "estimate"}, true, 0, string(cwl.Declared), []string{"declared"}, 0},
		{"may declare, has none", Params{Counter: "estimate"}, true, 1, string(cwl.Inferred), []string{"declared", "inferred"}, 0},
		{"cannot declare", Params{Counter: "estimate"}, false, 1, string(cwl.Inferred), []string{"inferred"}, 0},
		{"asked", Params{Counter: "estimate", Episodes: "declared", Budget: 1234}, false, 1, string(cwl.Declared), []string{"declared"}, 1234},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := [2]*session.Session{declaring, plain}[tc.session]
			var prepared []string
			prepare := func(ctx context.Context, p Params) (*Replay, error) {
				prepared = append(prepared, p.Episodes)
				return New(ctx, s, p, nil)
			}
			r, p, err := Resolve(context.Background(), tc.p, func() bool { return tc.declares }, prepare)
			if err != nil {
				t.Fatal(err)
			}
			if p.Episodes != tc.episodes || !slices.Equal(prepared, tc.prepared) {
				t.Errorf("episodes %q after preparing %v, want %q after %v", p.Episodes, prepared, tc.episodes, tc.prepared)
			}
			want := tc.budget
			if want == 0 {
				want = DefaultBudget(r.Uncapped().Before)
			}
			if p.Budget != want || p.Budget <= 0 {
				t.Errorf("budget %d, want %d", p.Budget, want)
			}
		})
	}
}
