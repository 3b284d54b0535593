package report

import (
	"math"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// TestTimelineBreakdownsAddUp measures every request of a real pi session
// that compacted twice: each request's breakdown by category adds up to
// its tokens with each counter, and its input drops at the first
// compaction.
func TestTimelineBreakdownsAddUp(t *testing.T) {
	s, err := ingest.ReadFile("../../testdata/shared/sessions/pi/pi-cwl__before-compaction.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	main := s.Main()
	reqs := session.BuildRequests(main)
	compactions := Compactions(main, reqs)
	if len(reqs) != 484 || len(compactions) != 2 || compactions[0].NextRequest != 173 {
		t.Fatalf("%d requests, compactions %+v", len(reqs), compactions)
	}
	for _, name := range []string{"estimate", "o200k"} {
		c, err := tokens.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		points := Timeline(reqs, tokens.NewLedger(c))
		if len(points) != len(reqs) {
			t.Fatalf("%s: %d points for %d requests", name, len(points), len(reqs))
		}
		for _, p := range points {
			sum := 0.0
			for _, x := range p.Breakdown {
				sum += x
			}
			if len(p.Breakdown) != len(tokens.CategoryNames()) || math.Abs(sum-float64(p.Tokens)) > 1e-6 {
				t.Fatalf("%s request %d: breakdown %v sums to %v, tokens %d", name, p.Request, p.Breakdown, sum, p.Tokens)
			}
		}
		k := compactions[0].NextRequest
		if points[k].Tokens >= points[k-1].Tokens {
			t.Fatalf("%s: no drop at the compaction: %d then %d", name, points[k-1].Tokens, points[k].Tokens)
		}
	}
}
