package recall

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"ctxscope/engine/debug"
	"ctxscope/engine/ingest"
	"ctxscope/engine/memory/code"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
	"ctxscope/search/lexical"
)

const sessions = "../../testdata/shared/sessions/"

// prepare reads a shared session and prepares its main thread with
// declared episodes, or inferred ones when it declares none.
func prepare(t testing.TB, rel string) (*session.Session, *debug.Replay) {
	t.Helper()
	ss, _, err := ingest.ReadPaths([]string{filepath.Join(sessions, rel)})
	if err != nil || len(ss) == 0 {
		t.Fatalf("%s: %v", rel, err)
	}
	s := ss[0]
	for _, mode := range []string{"declared", "inferred"} {
		r, err := debug.New(context.Background(), s, debug.Params{Episodes: mode}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if mode == "inferred" || r.HasEpisodes() {
			return s, r
		}
	}
	return nil, nil
}

func TestRecoveryAtLookBacks(t *testing.T) {
	s, r := prepare(t, "pi/pi-cwl__before-compaction.jsonl")
	mem := code.ReadSession("m", s, nil)
	for _, budget := range []int{20000, 40000, 60000} {
		life, err := r.Lifecycle(debug.Params{Policy: "paper", Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Evaluate(mem, s.Threads[0], 0, life, Options{Counter: tokens.Estimator{}, Index: lexical.Build})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("τ %d: %d look-backs (%d skipped); memory %d (%.2f, coverage %.2f, %d tokens); bm25 %d (%.2f, coverage %.2f, %d tokens)",
			budget, rep.LookBacks, rep.Skipped, rep.Memory.Recovered, rep.Memory.Rate, rep.Memory.Coverage, rep.Memory.Tokens,
			rep.BM25.Recovered, rep.BM25.Rate, rep.BM25.Coverage, rep.BM25.Tokens)
		for _, ev := range rep.Events {
			for _, o := range []Outcome{ev.Memory, ev.BM25} {
				if o.Tokens > rep.RecallBudget {
					t.Errorf("request %d: %d tokens recalled, budget %d", ev.Request, o.Tokens, rep.RecallBudget)
				}
			}
		}
	}
}

// TestGraphChannelRecovers pins which look-backs the memory brings back
// at τ 20,000 on the two long pi sessions. The graph channel was tuned on
// pi-cwl__large-session (a file's read results before its edits'
// confirmations, a passage ranked by the most telling relation it belongs
// to, the query from the last user turn and the last four assistant
// messages, files named by path before files named through a symbol):
// there it brings back 5 of 11, against 1 before. On
// pi-cwl__before-compaction, held out, it brings back the same 4 of 9 as
// before. BM25 over the same evicted passages brings back none on either.
func TestGraphChannelRecovers(t *testing.T) {
	for _, tc := range []struct {
		file      string
		lookBacks []int
		recovered []int
	}{
		{"pi/pi-cwl__large-session.jsonl", []int{19, 103, 177, 179, 275, 298, 301, 323, 334, 388, 392}, []int{19, 298, 301, 323, 334}},
		{"pi/pi-cwl__before-compaction.jsonl", []int{23, 23, 52, 107, 180, 220, 233, 248, 423}, []int{52, 180, 233, 423}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			s, r := prepare(t, tc.file)
			life, err := r.Lifecycle(debug.Params{Policy: "paper", Budget: 20000})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Evaluate(code.ReadSession("m", s, nil), s.Threads[0], 0, life, Options{Counter: tokens.Estimator{}, Index: lexical.Build})
			if err != nil {
				t.Fatal(err)
			}
			var all, recovered []int
			for _, ev := range rep.Events {
				all = append(all, ev.Request)
				if ev.Memory.Recovered {
					recovered = append(recovered, ev.Request)
				}
				if ev.BM25.Recovered {
					t.Errorf("request %d: BM25 brought the read back", ev.Request)
				}
			}
			if !slices.Equal(all, tc.lookBacks) || !slices.Equal(recovered, tc.recovered) {
				t.Errorf("look-backs %v, recovered %v; want %v, %v", all, recovered, tc.lookBacks, tc.recovered)
			}
		})
	}
}

// TestNamedFilesPathsFirst: a file the query names by its path comes
// before one it names only through a symbol the file defines, even when
// the symbol is mentioned later. In pi-cwl__large-session, theme.ts
// defines "theme", a word of nearly every sentence about themes.
func TestNamedFilesPathsFirst(t *testing.T) {
	s, _ := prepare(t, "pi/pi-cwl__large-session.jsonl")
	ix, err := newIndex(context.Background(), code.ReadSession("m", s, nil), s.Threads[0], 0, lexical.Build)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"edit: packages/coding-agent/README.md\nNow the README shows how to copy a built-in theme",
			[]string{"packages/coding-agent/README.md", "README.md", "packages/coding-agent/src/theme/theme.ts"}},
		{"read README.md, then packages/coding-agent/src/theme/dark.json",
			[]string{"packages/coding-agent/src/theme/dark.json", "packages/coding-agent/README.md", "README.md"}},
		{"how is the theme chosen", []string{"packages/coding-agent/src/theme/theme.ts"}},
	} {
		var got []string
		for _, f := range ix.namedFiles(tc.query) {
			got = append(got, f.Name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q names %v, want %v", tc.query, got, tc.want)
		}
	}
}
