package ingest_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// TestBigRecordTextSurvivesLaterRecords reads a pi and a Claude Code file
// whose first message is longer than a big record, followed by records
// that the decoder parses after it. The Claude Code file begins with the
// big record, so its head holds no whole record: it must be told by the
// first record's outline. The big text is kept in the room its
// parser read it into (norm.FastJSONString); were that room reused for
// the next record, the text would change under the entry that holds it.
func TestBigRecordTextSurvivesLaterRecords(t *testing.T) {
	big := strings.Repeat("the first record's text ", 300_000) // 7.2 MB
	files := map[string][]string{
		"pi.jsonl": {
			`{"type":"session","version":3,"id":"big","timestamp":"2026-05-12T01:02:27.657Z","cwd":"/"}`,
			`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-05-12T01:02:28Z","message":{"role":"user","content":[{"type":"text","text":"` + big + `"}]}}`,
			`{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-05-12T01:02:29Z","message":{"role":"user","content":[{"type":"text","text":"` + strings.Repeat("z", 1000) + `"}]}}`,
		},
		"claude.jsonl": {
			`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"` + big + `"},"uuid":"u1","timestamp":"2026-06-05T04:56:32.812Z","userType":"external","cwd":"/","sessionId":"s","version":"2.1.152"}`,
			`{"parentUuid":"u1","isSidechain":false,"type":"user","message":{"role":"user","content":"` + strings.Repeat("z", 1000) + `"},"uuid":"u2","timestamp":"2026-06-05T04:56:33.812Z","userType":"external","cwd":"/","sessionId":"s","version":"2.1.152"}`,
		},
	}
	for name, lines := range files {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			data := []byte(strings.Join(lines, "\n") + "\n")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			var first *session.Entry
			_, err := ingest.Stream(bytes.NewReader(data), path, func(u jsonl.Update) error {
				if first == nil && u.Entry.Message != nil {
					first = u.Entry
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if first == nil || len(first.Message.Blocks) == 0 || first.Message.Blocks[0].Text != big {
				t.Fatal("streamed: the big record's text changed after the records that followed it")
			}
			s, err := ingest.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Threads[0].Entries; len(got) < 2 || got[0].Message == nil || got[0].Message.Blocks[0].Text != big {
				t.Fatal("read: the big record's text changed after the records that followed it")
			}
		})
	}
}
