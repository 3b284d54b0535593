package cwl

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

// v11History builds the history of vector V11 (cwl-reference.md §5): a
// second task declares a dependency on an already evicted expl episode.
func v11History() []*session.Message {
	g := &historyGen{rng: rand.New(rand.NewPCG(1, 2))}
	g.user()
	g.delimiter(`{"action":"start","name":"e1","type":"expl"}`)
	g.fixedTool("read", "a.ts", 400)
	g.delimiter(`{"action":"end","description":"a.ts"}`)
	g.delimiter(`{"action":"start","name":"a1","type":"act","dependencies":["e1"]}`)
	g.fixedTool("edit", "a.ts", 100)
	g.delimiter(`{"action":"end"}`)
	g.delimiter(`{"action":"start","name":"e2","type":"expl"}`)
	g.fixedTool("read", "b.ts", 400)
	g.delimiter(`{"action":"end","description":"b.ts"}`)
	g.user()
	g.delimiter(`{"action":"start","name":"a2","type":"act","dependencies":["e1"]}`)
	g.fixedTool("edit", "a.ts", 100)
	g.delimiter(`{"action":"end"}`)
	g.assistant(session.Block{Type: session.BlockText, Text: "done"})
	return g.msgs
}

// TestResurrection shows divergence 9: the reference's stateless passes
// bring e1 back once a2 depends on it; the paper's monotone state does
// not.
func TestResurrection(t *testing.T) {
	r, err := Prepare(session.BuildRequests(threadOf(v11History())), estimateLedger(), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eps := r.EpisodesOf(0).List
	restored := func(pol string) []string {
		tl, err := r.Run(RunOptions{Policy: pol, Budget: 700})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range tl.Requests {
			for _, e := range p.Restored {
				names = append(names, eps[e.Episode].Name)
			}
		}
		return names
	}
	if got := restored(PolicyPiCWL); len(got) != 1 || got[0] != "e1" {
		t.Errorf("pi-cwl restored %v, want [e1]", got)
	}
	if got := restored(PolicyPaper); len(got) != 0 {
		t.Errorf("paper restored %v, want none", got)
	}
	tl, _ := r.Run(RunOptions{Policy: PolicyPaper, Budget: 700})
	var notes []string
	for _, p := range tl.Requests {
		for _, d := range p.LateDependencies {
			notes = append(notes, d.Describe(eps))
		}
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "a2 depends on e1, already evicted") {
		t.Errorf("paper notes %q, want one about a2's late dependency on e1", notes)
	}
}

// TestPiReplayMatchesFilter checks that the replay's pi-cwl pass at every
// request is the reference filter over that request's input, and that its
// views recount to its tokens.
func TestPiReplayMatchesFilter(t *testing.T) {
	for seed := range uint64(40) {
		msgs := genHistory(seed)
		reqs := session.BuildRequests(threadOf(msgs))
		r, err := Prepare(reqs, estimateLedger(), PrepareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, budget := range []int{0, 200, 2000} {
			o := RunOptions{Policy: PolicyPiCWL, Budget: budget}
			tl, _ := r.Run(o)
			for k, q := range reqs {
				want := FilterPiCWL(q.Input(), 400000, &Limit{Value: float64(budget)}, estimateLedger())
				if tl.Requests[k].After != want.TokensAfter {
					t.Fatalf("seed %d budget %d request %d: replay %d tokens, filter %d", seed, budget, k, tl.Requests[k].After, want.TokensAfter)
				}
				if k%7 == 0 || k == len(reqs)-1 {
					v, _ := r.ContextAt(o, k)
					if got := viewTokens(r, k, v); got != tl.Requests[k].After {
						t.Fatalf("seed %d request %d: view recounts to %d, timeline %d", seed, k, got, tl.Requests[k].After)
					}
					a, _ := json.Marshal(v.Messages)
					b, _ := json.Marshal(want.View)
					if string(a) != string(b) {
						t.Fatalf("seed %d request %d: view %s, filter %s", seed, k, a, b)
					}
				}
			}
		}
	}
}

// TestDiffAt checks the step API's diff against the two views.
func TestDiffAt(t *testing.T) {
	r, err := Prepare(session.BuildRequests(threadOf(v11History())), estimateLedger(), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o := RunOptions{Policy: PolicyPiCWL, Budget: 700}
	for k := range r.Requests() {
		d, err := r.DiffAt(o, k)
		if err != nil {
			t.Fatal(err)
		}
		cur, _ := r.ContextAt(o, k)
		prevLen := 0
		if k > 0 {
			pv, _ := r.ContextAt(o, k-1)
			prevLen = len(pv.Messages)
		}
		if got := prevLen + len(d.Added) - len(d.Removed); got != len(cur.Messages) {
			t.Fatalf("request %d: %d + %d - %d != %d messages", k, prevLen, len(d.Added), len(d.Removed), len(cur.Messages))
		}
	}
	if _, err := r.ContextAt(o, r.Requests()); err == nil {
		t.Error("out-of-range request accepted")
	}
}

// TestPiFastMatchesExact compares pi-cwl replays through the measured
// fast path with the exact simulation (detail forces it), on random
// histories and on the real sessions with inferred episodes.
func TestPiFastMatchesExact(t *testing.T) {
	var rs []*Replayer
	for seed := range uint64(60) {
		r, err := Prepare(session.BuildRequests(threadOf(genHistory(seed))), estimateLedger(), PrepareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.ctxs[0].pi.fast == nil {
			t.Fatalf("seed %d: no fast path for a well-formed history", seed)
		}
		rs = append(rs, r)
	}
	for _, f := range []string{"pi-cwl__large-session.jsonl", "pi-cwl__before-compaction.jsonl"} {
		rs = append(rs, prepareFile(t, "../../testdata/shared/sessions/pi/"+f, Inferred))
	}
	for i, r := range rs {
		for _, budget := range []int{0, 300, 20000, 300, 5000} { // reruns reuse the cached orders
			fast, _ := r.Run(RunOptions{Policy: PolicyPiCWL, Budget: budget})
			exact, _ := r.Run(RunOptions{Policy: PolicyPiCWL, Budget: budget, Detail: true})
			for k := range fast.Requests {
				a, b := fast.Requests[k], exact.Requests[k]
				for e := range b.Evictions {
					b.Evictions[e].Messages, b.Evictions[e].Blocks = nil, nil
				}
				x, _ := json.Marshal(a)
				y, _ := json.Marshal(b)
				if string(x) != string(y) {
					t.Fatalf("replayer %d budget %d request %d:\nfast  %s\nexact %s", i, budget, k, x, y)
				}
			}
		}
	}
}

func prepareFile(t testing.TB, path string, mode EpisodeMode) *Replayer {
	s, err := ingest.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Prepare(session.BuildRequests(s.Main()), estimateLedger(), PrepareOptions{Episodes: mode})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRunWithMatchesRun: a timeline lent by RunWith, whose points the
// run before wrote, is the one Run makes, for every policy and for
// budgets that evict much, then little, then much again.
func TestRunWithMatchesRun(t *testing.T) {
	r := prepareFile(t, "../../testdata/shared/sessions/pi/pi-cwl__large-session.jsonl", Inferred)
	for _, policy := range Policies {
		for _, budget := range []int{5000, 60000, 0, 8000, 300} {
			o := RunOptions{Policy: policy, Budget: budget}
			want, err := r.Run(o)
			if err != nil {
				t.Fatal(err)
			}
			var got []byte
			if err := r.RunWith(o, func(lent *Timeline) error {
				got, err = json.Marshal(lent)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if w, _ := json.Marshal(want); string(w) != string(got) {
				t.Fatalf("%s at τ=%d: the lent timeline differs from Run's", policy, budget)
			}
		}
	}
}

// TestLeanRunLeavesOutOnlyTheExplanations: a lean paper run is the full
// run without its unreachable points' blockers and its late dependencies,
// over budgets that leave requests over budget and budgets that do not;
// and the full run has blockers to leave out.
func TestLeanRunLeavesOutOnlyTheExplanations(t *testing.T) {
	r := prepareFile(t, "../../testdata/shared/sessions/pi/pi-cwl__large-session.jsonl", Inferred)
	blockers := 0
	for _, budget := range []int{300, 5000, 60000, 0} {
		full, err := r.Run(RunOptions{Policy: PolicyPaper, Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		lean, err := r.Run(RunOptions{Policy: PolicyPaper, Budget: budget, Lean: true})
		if err != nil {
			t.Fatal(err)
		}
		for k := range full.Requests {
			pt := &full.Requests[k]
			pt.LateDependencies = nil
			if pt.Unreachable != nil {
				blockers += len(pt.Unreachable.Blockers)
				pt.Unreachable.Blockers = nil
			}
		}
		f, _ := json.Marshal(full)
		l, _ := json.Marshal(lean)
		if string(f) != string(l) {
			t.Fatalf("τ=%d: the lean run differs from the full one beyond blockers and late dependencies", budget)
		}
	}
	if blockers == 0 {
		t.Fatal("no blockers in the full runs: the test compares nothing they leave out")
	}
}

// TestUnsplitRunLeavesOutOnlyTheSplit: an unsplit run, calibrated on the
// usage a real session reports or not, is the split run with every
// point's Cats zero; the split run has categories to leave out; and a
// split run after an unsplit one (which leaves the categories'
// accounting stale) splits as the first did.
func TestUnsplitRunLeavesOutOnlyTheSplit(t *testing.T) {
	r := prepareFile(t, "../../testdata/shared/sessions/pi/pi-cwl__before-compaction.jsonl", Inferred)
	scales, _ := r.Calibrate()
	for _, calibration := range [][]Scale{nil, scales} {
		for _, policy := range Policies {
			o := RunOptions{Policy: policy, Budget: 20_000, Calibration: calibration}
			split, err := r.Run(o)
			if err != nil {
				t.Fatal(err)
			}
			o.Unsplit = true
			unsplit, err := r.Run(o)
			if err != nil {
				t.Fatal(err)
			}
			o.Unsplit = false
			again, err := r.Run(o)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := mustMarshal(t, split), mustMarshal(t, again); string(a) != string(b) {
				t.Fatalf("%s (calibrated %v): a split run after an unsplit one splits otherwise", policy, calibration != nil)
			}
			cats := 0
			for k := range split.Requests {
				for _, v := range split.Requests[k].Cats {
					cats += int(v)
				}
				split.Requests[k].Cats = [numCats]int32{}
			}
			if cats == 0 {
				t.Fatalf("%s: the split run has no categories to leave out", policy)
			}
			a, _ := json.Marshal(split)
			b, _ := json.Marshal(unsplit)
			if string(a) != string(b) {
				t.Fatalf("%s (calibrated %v): the unsplit run differs from the split one beyond its categories", policy, calibration != nil)
			}
		}
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
