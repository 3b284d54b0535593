package cwl

import (
	"bytes"
	"os"
	"testing"

	"ctxscope/engine/ingest/pi"
	"ctxscope/engine/session"
)

// FuzzReplayHistory imports arbitrary message arrays, seeded with the
// vector histories and the small real pi files, and replays them under
// every policy with declared and inferred episodes: no panic, no input
// larger than the uncapped one, and the reference filter agrees with the
// replay's last pi-cwl pass.
func FuzzReplayHistory(f *testing.F) {
	for _, v := range loadVectors(f).Vectors {
		f.Add(v.HistoryJSON(), uint16(300))
	}
	for _, name := range []string{"agent-sessions__pi-v3-small.jsonl", "pi-cwl__assistant-message-with-thinking-code.json"} {
		raw, err := os.ReadFile("../../testdata/shared/sessions/pi/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw, uint16(10))
	}
	f.Fuzz(func(t *testing.T, data []byte, budget uint16) {
		s, err := pi.Importer{}.Import(bytes.NewReader(data), "fuzz.json")
		if err != nil || s.Main() == nil {
			return
		}
		reqs := session.BuildRequests(s.Main())
		for _, mode := range []EpisodeMode{Declared, Inferred} {
			r, err := Prepare(reqs, estimateLedger(), PrepareOptions{Episodes: mode})
			if err != nil {
				t.Fatal(err)
			}
			for _, pol := range Policies {
				tl, err := r.Run(RunOptions{Policy: pol, Budget: int(budget), Detail: true})
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range tl.Requests {
					if p.After > p.Before && pol != PolicyCompact {
						t.Fatalf("%s: request %d grew from %d to %d", pol, p.Request, p.Before, p.After)
					}
				}
				if pol == PolicyPiCWL {
					fast, _ := r.Run(RunOptions{Policy: pol, Budget: int(budget)})
					for k := range fast.Requests {
						if fast.Requests[k].After != tl.Requests[k].After || fast.Requests[k].Cached != tl.Requests[k].Cached {
							t.Fatalf("%s request %d: fast %+v, exact %+v", mode, k, fast.Requests[k], tl.Requests[k])
						}
					}
				}
				if mode == Declared && pol == PolicyPiCWL && len(reqs) > 0 {
					last := reqs[len(reqs)-1]
					want := FilterPiCWL(last.Input(), 1, &Limit{Value: float64(budget)}, estimateLedger())
					if got := tl.Requests[len(reqs)-1].After; got != want.TokensAfter {
						t.Fatalf("replay %d, filter %d", got, want.TokensAfter)
					}
				}
			}
		}
	})
}

// FuzzPiFast compares the pi-cwl replay's fast path with the exact
// simulation on generated annotated histories, at two budgets in a row
// (the second reuses cached orders).
func FuzzPiFast(f *testing.F) {
	for _, s := range []uint64{3, 5, 8, 13} {
		f.Add(s, uint16(200), uint16(900))
	}
	f.Fuzz(func(t *testing.T, seed uint64, b1, b2 uint16) {
		r, err := Prepare(session.BuildRequests(threadOf(genHistory(seed))), estimateLedger(), PrepareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range []int{int(b1), int(b2)} {
			fast, _ := r.Run(RunOptions{Policy: PolicyPiCWL, Budget: b})
			exact, _ := r.Run(RunOptions{Policy: PolicyPiCWL, Budget: b, Detail: true})
			for k := range fast.Requests {
				x, y := fast.Requests[k], exact.Requests[k]
				if x.After != y.After || x.Cached != y.Cached || len(x.Evictions) != len(y.Evictions) || len(x.Restored) != len(y.Restored) || x.LookBack != y.LookBack {
					t.Fatalf("budget %d request %d:\nfast  %+v\nexact %+v", b, k, x, y)
				}
			}
		}
	})
}
