package ingest_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/session"
)

// TestStreamMatchesRead streams the line-oriented corpus files and checks
// that the entries seen equal those Read keeps.
func TestStreamMatchesRead(t *testing.T) {
	for _, rel := range []string{
		"claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
		"pi/pi-cwl__before-compaction.jsonl",
		"codex/claude-code-log__rollout-2026-01-02-synthetic.jsonl",
	} {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			data := readCorpus(t, rel)
			whole, err := ingest.Read(bytes.NewReader(data), rel)
			if err != nil {
				t.Fatal(err)
			}
			byThread := map[*session.Thread]int{} // a thread's id may be learnt after its first entry
			s, err := ingest.Stream(bytes.NewReader(data), rel, func(u jsonl.Update) error {
				if !u.Merged {
					byThread[u.Thread]++
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]int{}
			for th, n := range byThread {
				seen[th.ID] += n
			}
			for _, th := range whole.Threads {
				if seen[th.ID] != len(th.Entries) {
					t.Errorf("thread %s: streamed %d entries, Read kept %d", th.ID, seen[th.ID], len(th.Entries))
				}
			}
			for _, th := range s.Threads {
				if len(th.Entries) != 0 {
					t.Errorf("thread %s kept %d entries after streaming", th.ID, len(th.Entries))
				}
			}
			if s.ID != whole.ID || len(s.Threads) != len(whole.Threads) {
				t.Errorf("header %s with %d threads, want %s with %d", s.ID, len(s.Threads), whole.ID, len(whole.Threads))
			}
		})
	}
	_, err := ingest.Stream(bytes.NewReader(readCorpus(t, "swe-agent/swe-agent__gpt4-default__pydicom-1458.traj")), "x.traj", func(jsonl.Update) error { return nil })
	if !errors.Is(err, ingest.ErrNotIncremental) {
		t.Errorf("streaming a trajectory: %v, want ErrNotIncremental", err)
	}
}
