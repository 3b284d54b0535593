package tail

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctxscope/engine/ingest"
)

// TestTailMatchesImport writes each real line-oriented session of the
// corpus in random pieces, polling after each, and checks that the entries
// the reader reports are those a one-shot import finds, in the same order.
func TestTailMatchesImport(t *testing.T) {
	var files []string
	for _, dir := range []string{"pi", "claude-code", "codex"} {
		m, _ := filepath.Glob(filepath.Join("../../testdata/shared/sessions", dir, "*.jsonl"))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("the shared corpus is missing (testdata/shared/sessions)")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, src := range files {
		t.Run(filepath.Base(src), func(t *testing.T) {
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := ingest.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "live.jsonl")
			r := Open(path, Position{}, 0)
			defer r.Close()
			got := map[string][]string{}
			for rest := data; len(rest) > 0; {
				n := 1 + rng.IntN(min(len(rest), 8192))
				appendFile(t, path, string(rest[:n]))
				rest = rest[n:]
				evs, err := r.Poll()
				if err != nil {
					t.Fatal(err)
				}
				for _, ev := range evs {
					switch {
					case ev.Kind == EventEntry && !ev.Merged:
						got[ev.Thread] = append(got[ev.Thread], ev.Entry.ID)
					case ev.Kind == EventDiagnostic || ev.Kind == EventError || ev.Kind == EventReset:
						t.Fatalf("unexpected %s event: %v %v", ev.Kind, ev.Diagnostic, ev.Err)
					}
				}
			}
			// A thread's id can be learnt after its first entry (the
			// session id of a Claude Code transcript, after its summary
			// line): entries reported before are under the old id, so each
			// thread's list must end with what the tail reported under its
			// id, and the totals must agree.
			total, reported := 0, 0
			for _, ids := range got {
				reported += len(ids)
			}
			for _, th := range whole.Threads {
				total += len(th.Entries)
			}
			if total != reported {
				t.Errorf("tail reported %d entries, import has %d", reported, total)
			}
			for _, th := range whole.Threads {
				var want []string
				for _, e := range th.Entries {
					want = append(want, e.ID)
				}
				if g := strings.Join(got[th.ID], " "); g != strings.Join(want, " ") && !strings.HasSuffix(strings.Join(want, " "), g) {
					t.Errorf("thread %s: tail reported %d entries, import has %d", th.ID, len(got[th.ID]), len(want))
				}
			}
		})
	}
}
