package debug

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"ctxscope/engine/cwl"
	"ctxscope/engine/ingest"
)

// bigSession concatenates copies of the messages of the real 453-request
// pi session into one pi session: 9 copies hold about 1.1M tokens.
func bigSession(b *testing.B, copies int) *Replay {
	return concatenated(b, "pi-cwl__large-session.jsonl", copies, Params{Counter: "estimate", Episodes: "inferred"})
}

// paperScaleSession is the paper-scale session of the browser benchmarks
// (paperScale in frontend/e2e/debugger-helpers.mjs): the real pi session
// before its compaction 27 times over, 13,068 requests and 10.1M tokens of
// history, prepared as the app prepares it (calibrated counter, inferred
// episodes since it declares none).
func paperScaleSession(b *testing.B) *Replay {
	return concatenated(b, "pi-cwl__before-compaction.jsonl", 27, Params{Episodes: "inferred"})
}

// concatenated writes the header of a shared real pi session and then its
// other lines copies times over, and prepares the result with p.
func concatenated(b *testing.B, name string, copies int, p Params) *Replay {
	b.Helper()
	raw, err := os.ReadFile("../../testdata/shared/sessions/pi/" + name)
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimRight(string(raw), "\n")+"\n", "\n")
	var sb strings.Builder
	sb.Grow(copies * len(raw))
	sb.WriteString(lines[0])
	for range copies {
		for _, l := range lines[1:] {
			sb.WriteString(l)
		}
	}
	dir := b.TempDir()
	path := dir + "/big.jsonl"
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	s, err := ingest.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	r, err := New(context.Background(), s, p, nil)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

func BenchmarkTimeline1M(b *testing.B) {
	r := bigSession(b, 9)
	benchSteps(b, Params{Counter: "estimate", Episodes: "inferred", Policy: cwl.PolicyPaper}, 200_000, 100,
		func(p Params) (any, error) { return r.Timeline(p) })
}

// BenchmarkTimelinePaperScale is a new τ on the paper-scale session, near
// the budget it opens with (92,000): the view's whole timeline and its
// JSON, what the page asks for when it has none of the replay yet.
func BenchmarkTimelinePaperScale(b *testing.B) {
	r := paperScaleSession(b)
	benchSteps(b, Params{Episodes: "inferred", Policy: cwl.PolicyPaper}, 80_000, 40,
		func(p Params) (any, error) { return r.TimelineForView(p) })
}

// BenchmarkStepPaperScale is one step of a τ drag on the paper-scale
// session: what the page asks for while it holds a timeline of the
// replay and the thumb is held (Debugger.ReplayStep without the split),
// and its JSON.
func BenchmarkStepPaperScale(b *testing.B) {
	r := paperScaleSession(b)
	benchSteps(b, Params{Episodes: "inferred", Policy: cwl.PolicyPaper}, 80_000, 40,
		func(p Params) (any, error) { return r.Step(p, false) })
}

// BenchmarkStepSplitPaperScale is the step at the τ a drag ends on, or
// at a typed τ: with the split of the kept input by category.
func BenchmarkStepSplitPaperScale(b *testing.B) {
	r := paperScaleSession(b)
	benchSteps(b, Params{Episodes: "inferred", Policy: cwl.PolicyPaper}, 80_000, 40,
		func(p Params) (any, error) { return r.Step(p, true) })
}

// benchSteps replays at budgets from, from+1000, ... (steps of them, round
// and round) and encodes each answer as JSON, reporting its size.
func benchSteps(b *testing.B, p Params, from, steps int, replay func(Params) (any, error)) {
	b.ResetTimer()
	for i := range b.N {
		p.Budget = from + 1000*(i%steps)
		v, err := replay(p)
		if err != nil {
			b.Fatal(err)
		}
		out, err := json.Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(out)), "bytes")
	}
}

func BenchmarkContextAtLast1M(b *testing.B) {
	r := bigSession(b, 9)
	benchContext(b, r, Params{Counter: "estimate", Episodes: "inferred", Policy: cwl.PolicyPaper, Budget: 300_000}, r.Requests()-1)
}

// BenchmarkContextPaperScale is the context the page asks for when it
// opens the paper-scale session (its last request) or τ comes to rest.
func BenchmarkContextPaperScale(b *testing.B) {
	r := paperScaleSession(b)
	benchContext(b, r, Params{Episodes: "inferred", Policy: cwl.PolicyPaper, Budget: 80_000}, r.Requests()-1)
}

// benchContext asks for the context of request k under p and encodes it
// as JSON, reporting its size and items. The first call, which prepares
// the replayer contexts are read from, is left out.
func benchContext(b *testing.B, r *Replay, p Params, k int) {
	if _, err := r.Context(p, k, 600); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		c, err := r.Context(p, k, 600)
		if err != nil {
			b.Fatal(err)
		}
		out, err := json.Marshal(c)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(out)), "bytes")
		b.ReportMetric(float64(len(c.Items)), "items")
	}
}
