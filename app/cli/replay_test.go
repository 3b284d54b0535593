package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

const sessions = shared + "sessions/"

// replayGoldens lists the sessions whose replay summaries are pinned in
// testdata/replay. Add a row per importer as importers land.
var replayGoldens = []struct {
	file      string
	evictions bool // the session is large enough that τ = 20,000 must evict
}{
	{"pi/agent-sessions__pi-v3-small.jsonl", false},
	{"pi/pi-cwl__assistant-message-with-thinking-code.json", false},
	{"pi/pi-cwl__before-compaction.jsonl", true},
	{"pi/pi-cwl__large-session.jsonl", true},
}

// TestReplayGolden replays every listed session with inferred episodes at
// τ = 20,000 under every policy and compares the summaries with golden
// files (go test ./app/cli -run ReplayGolden -update rewrites them).
func TestReplayGolden(t *testing.T) {
	for _, tc := range replayGoldens {
		var out strings.Builder
		for _, pol := range []string{"paper", "pi-cwl", "none", "truncate", "compact"} {
			code, stdout, stderr := run(t, "replay", sessions+tc.file, "--budget", "20000", "--episodes", "inferred", "--policy", pol)
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", tc.file, pol, code, stderr)
			}
			if tc.evictions && (pol == "paper" || pol == "pi-cwl") && strings.Contains(stdout, "evictions     none") {
				t.Errorf("%s %s: no evictions at τ = 20,000", tc.file, pol)
			}
			out.WriteString(stdout + "\n")
		}
		golden(t, filepath.Join("replay", strings.ReplaceAll(tc.file, "/", "__")+".golden"), []byte(out.String()))
	}
}

func TestSweepCommand(t *testing.T) {
	code, stdout, stderr := run(t, "sweep", sessions+"pi/pi-cwl__large-session.jsonl", "--from", "10000", "--to", "30000", "--step", "10k", "--episodes", "inferred", "--policy", "paper,truncate")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if lines := strings.Count(stdout, "\n"); lines != 7 {
		t.Errorf("sweep printed %d lines, want a header and 6 rows:\n%s", lines, stdout)
	}
	code, _, stderr = run(t, "sweep", sessions+"pi/pi-cwl__large-session.jsonl", "--from", "10", "--to", "5", "--step", "1")
	if code != 2 || !strings.Contains(stderr, "invalid sweep") {
		t.Errorf("bad range: exit %d, %q", code, stderr)
	}
}

func TestReplayStep(t *testing.T) {
	code, stdout, stderr := run(t, "replay", sessions+"pi/pi-cwl__large-session.jsonl", "--budget", "20000", "--episodes", "inferred", "--at", "300")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Context struct {
			Request  int               `json:"request"`
			Tokens   int               `json:"tokens"`
			Messages []json.RawMessage `json:"messages"`
		} `json:"context"`
		Diff struct {
			Added []json.RawMessage `json:"added"`
		} `json:"diff"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Context.Request != 300 || got.Context.Tokens == 0 || got.Context.Tokens > 20000 || len(got.Context.Messages) == 0 || len(got.Diff.Added) == 0 {
		t.Errorf("step view %+v", got)
	}
	code, _, stderr = run(t, "replay", sessions+"pi/pi-cwl__large-session.jsonl", "--budget", "20000", "--at", "100000")
	if code != 2 || !strings.Contains(stderr, "out of range") {
		t.Errorf("out-of-range --at: exit %d, %q", code, stderr)
	}
}
