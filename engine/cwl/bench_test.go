package cwl

import (
	"fmt"
	"sync"
	"testing"

	"ctxscope/engine/cputime"
	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

const largestSession = "../../testdata/shared/sessions/pi/pi-cwl__before-compaction.jsonl"

var benchSources = []string{
	"../../testdata/shared/sessions/pi/pi-cwl__large-session.jsonl",
	largestSession,
}

var (
	benchOnce sync.Once
	benchMsgs []*session.Message // the sources' main-thread messages, in order
	benchErr  error
)

func loadBenchMessages(b *testing.B) []*session.Message {
	benchOnce.Do(func() {
		for _, f := range benchSources {
			s, err := ingest.ReadFile(f)
			if err != nil {
				benchErr = err
				return
			}
			for _, e := range s.Main().Entries {
				if e.Kind == session.EntryMessage && e.Message != nil && !e.Message.Excluded {
					benchMsgs = append(benchMsgs, e.Message)
				}
			}
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchMsgs
}

// concatThread builds one linear thread of at least minTokens estimated
// tokens by concatenating the real sessions' messages, repeated as needed.
// Repeats are copies with their own tool-call ids (as a real session's are
// unique), so that tokenizing them is real work.
func concatThread(b *testing.B, minTokens int) (*session.Thread, int) {
	src := loadBenchMessages(b)
	l := tokens.NewLedger(tokens.Estimator{})
	var msgs []*session.Message
	total := 0
	for rep := 0; total < minTokens; rep++ {
		for _, m := range src {
			c := *m
			c.Blocks = append([]session.Block(nil), m.Blocks...)
			for k := range c.Blocks {
				if id := c.Blocks[k].ToolCallID; id != "" {
					c.Blocks[k].ToolCallID = fmt.Sprintf("%s#%d", id, rep)
				}
			}
			msgs = append(msgs, &c)
			total += l.Message(m)
			if total >= minTokens {
				break
			}
		}
	}
	return threadOf(msgs), total
}

func benchRequests(b *testing.B, path string) []*session.Request {
	s, err := ingest.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return session.BuildRequests(s.Main())
}

// loop runs f under b.Loop and reports CPU milliseconds per operation.
func loop(b *testing.B, f func(i int)) {
	start, _ := cputime.Process()
	i := 0
	for b.Loop() {
		f(i)
		i++
	}
	end, _ := cputime.Process()
	b.ReportMetric(float64(end-start)/float64(b.N)/1e6, "cpu-ms/op")
}

// benchReplay reports a first replay (tokenizing, preparing, replaying)
// and re-replays at alternating budgets with tokens cached.
func benchReplay(b *testing.B, reqs []*session.Request, policies []string) {
	b.Run("prepare", func(b *testing.B) { // tokenization and plans: the baseline
		loop(b, func(int) {
			if _, err := Prepare(reqs, tokens.NewLedger(tokens.Estimator{}), PrepareOptions{Episodes: Inferred}); err != nil {
				b.Fatal(err)
			}
		})
	})
	for _, pol := range []string{PolicyPaper, PolicyPiCWL} {
		b.Run("first/"+pol, func(b *testing.B) {
			loop(b, func(int) {
				r, err := Prepare(reqs, tokens.NewLedger(tokens.Estimator{}), PrepareOptions{Episodes: Inferred})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := r.Run(RunOptions{Policy: pol, Budget: 20000}); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
	r, err := Prepare(reqs, tokens.NewLedger(tokens.Estimator{}), PrepareOptions{Episodes: Inferred})
	if err != nil {
		b.Fatal(err)
	}
	// A twin, which the debugger explains single requests on, against
	// preparing again (the prepare bench above).
	b.Run("twin", func(b *testing.B) {
		loop(b, func(int) { r.Twin() })
	})
	for _, pol := range policies {
		b.Run("rereplay/"+pol, func(b *testing.B) {
			loop(b, func(i int) {
				if _, err := r.Run(RunOptions{Policy: pol, Budget: 15000 + 5000*(i%4)}); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkReplayLargest replays the largest shared session.
func BenchmarkReplayLargest(b *testing.B) {
	benchReplay(b, benchRequests(b, largestSession), Policies)
}

// BenchmarkReplay1M replays a session of over a million tokens built by
// concatenating real sessions.
func BenchmarkReplay1M(b *testing.B) {
	t, total := concatThread(b, 1_000_000)
	reqs := session.BuildRequests(t)
	b.Logf("%d messages, %d requests, %d tokens", len(t.Entries), len(reqs), total)
	benchReplay(b, reqs, Policies)
}

// BenchmarkReplayScaling re-replays concatenated sessions of four sizes
// under the paper policy, to show how the cost grows with length.
func BenchmarkReplayScaling(b *testing.B) {
	for _, size := range []int{250_000, 500_000, 1_000_000, 2_000_000} {
		t, _ := concatThread(b, size)
		reqs := session.BuildRequests(t)
		r, err := Prepare(reqs, tokens.NewLedger(tokens.Estimator{}), PrepareOptions{Episodes: Inferred})
		if err != nil {
			b.Fatal(err)
		}
		for _, pol := range []string{PolicyPaper, PolicyPiCWL} {
			b.Run(fmt.Sprintf("%s/%dk", pol, size/1000), func(b *testing.B) {
				loop(b, func(i int) {
					if _, err := r.Run(RunOptions{Policy: pol, Budget: 15000 + 5000*(i%4)}); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}
