package cli

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctxscope/app"
	"ctxscope/engine/cwl"
	"ctxscope/engine/debug"
)

const sessions = shared + "sessions/"

// replayGoldens lists the sessions (and threads) whose replay summaries
// are pinned in testdata/replay, one row per importer's shared files.
// Claude Code keeps most of its work in subagent threads, so those rows
// also replay the largest subagent; it is the one thread there that
// exceeds τ = 20,000.
var replayGoldens = []struct {
	file      string
	thread    string // "" for the main thread
	evictions bool   // the input exceeds τ = 20,000, so paper and pi-cwl must evict
}{
	{"pi/agent-sessions__pi-v3-small.jsonl", "", false},
	{"pi/pi-cwl__assistant-message-with-thinking-code.json", "", false},
	{"pi/pi-cwl__before-compaction.jsonl", "", true},
	{"pi/pi-cwl__large-session.jsonl", "", true},
	{"claude-code/claude-code-viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl", "", false},
	{"claude-code/claude-code-viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl", "", false},
	{"claude-code/claude-code-viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl", "2", false},
	{"claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", "", false},
	{"claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", "5", true},
	{"codex/claude-code-log__rollout-2026-01-02-synthetic.jsonl", "", false},
}

// TestReplayGolden replays every listed session with inferred episodes at
// τ = 20,000 under every policy and compares the summaries with golden
// files (go test ./app/cli -run ReplayGolden -update rewrites them).
func TestReplayGolden(t *testing.T) {
	for _, tc := range replayGoldens {
		var out strings.Builder
		for _, pol := range []string{"paper", "pi-cwl", "none", "truncate", "compact"} {
			args := []string{"replay", sessions + tc.file, "--budget", "20000", "--episodes", "inferred", "--tokenizer", "estimate", "--policy", pol}
			if tc.thread != "" {
				args = append(args, "--thread", tc.thread)
			}
			code, stdout, stderr := run(t, args...)
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", tc.file, pol, code, stderr)
			}
			evicted := !strings.Contains(stdout, "evictions     none")
			if (pol == "paper" || pol == "pi-cwl") && evicted != tc.evictions {
				t.Errorf("%s thread %q %s: evictions reported %v, want %v", tc.file, tc.thread, pol, evicted, tc.evictions)
			}
			out.WriteString(stdout + "\n")
		}
		name := strings.ReplaceAll(tc.file, "/", "__")
		if tc.thread != "" {
			name += ".thread" + tc.thread
		}
		golden(t, filepath.Join("replay", name+".golden"), []byte(out.String()))
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

// TestReplayEpisodesAuto: without --episodes, a session without delimiter
// calls is replayed with inferred episodes, the same as asking for them,
// and a damaged file's diagnostics are printed on stderr.
func TestReplayEpisodesAuto(t *testing.T) {
	file := sessions + "pi/pi-cwl__large-session.jsonl"
	_, auto, _ := run(t, "replay", file, "--budget", "20000")
	_, inferred, _ := run(t, "replay", file, "--budget", "20000", "--episodes", "inferred")
	if auto != inferred || !strings.Contains(auto, "inferred episodes") {
		t.Errorf("auto replay differs from inferred:\n%s\n---\n%s", auto, inferred)
	}
	broken := filepath.Join(t.TempDir(), "broken.jsonl")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, data[:len(data)-100], 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, "replay", broken, "--budget", "20000")
	if code != 0 || !strings.Contains(stderr, "broken.jsonl:") {
		t.Errorf("exit %d, stderr %q; want the truncation named with its line", code, stderr)
	}
}

// TestInspectReportsUsage: inspect prints the provider's usage next to
// the estimates, and the agent's own totals with what they add.
func TestInspectReportsUsage(t *testing.T) {
	code, out, stderr := run(t, "inspect", "../../engine/ingest/openhands/testdata/samples/software-agent-sdk-goal-events.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"reported usage      input 71283 (cache read 34772, cache write 0), output 377, by 2 of 2 responses",
		"agent's totals      input 107458 (cache read 68193, cache write 0), output 1347",
		"36175 input tokens more than the responses report",
		"the provider reported 35984",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestReplayTokenizerAuto: by default a session with provider usage is
// replayed in calibrated provider tokens, and says so; one without usage
// in the estimator's; asking for calibration without usage is refused.
func TestReplayTokenizerAuto(t *testing.T) {
	_, out, _ := run(t, "replay", sessions+"pi/pi-cwl__large-session.jsonl", "--budget", "50k")
	if !strings.Contains(out, "(calibrated estimate)") || !strings.Contains(out, "priced as claude-sonnet-4-5") {
		t.Errorf("with usage:\n%s", out)
	}
	_, out, _ = run(t, "replay", sessions+"swe-agent/swe-agent__fc-replace-from-source__marshmallow-1867.traj", "--budget", "50k")
	if !strings.Contains(out, "tokens (estimate)") || !strings.Contains(out, "not priced: no price for") {
		t.Errorf("without usage:\n%s", out)
	}
	code, _, stderr := run(t, "replay", sessions+"swe-agent/swe-agent__fc-replace-from-source__marshmallow-1867.traj", "--budget", "50k", "--tokenizer", "calibrated")
	if code != 2 || !strings.Contains(stderr, "no provider usage to calibrate on") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

// TestReplayIsTheDebuggers: `ctxscope replay FILE` with no budget, counter
// or episode flag replays what the debugger shows for the same file with
// nothing chosen: the same budget, counter and episodes, the same
// evictions, restorations and requests left over budget. The debugger is
// asked through the app's bound entry point, as the page asks it.
func TestReplayIsTheDebuggers(t *testing.T) {
	// The demo declares its episodes with delimiter calls; the others
	// have none, so their episodes are inferred.
	for _, file := range []string{"../demo/demo-fix-pagination.jsonl", sessions + "pi/pi-cwl__large-session.jsonl",
		sessions + "pi/pi-cwl__before-compaction.jsonl", sessions + "claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			path, err := filepath.Abs(file)
			if err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := run(t, "replay", path, "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var cli struct {
				Summary cwl.ReplaySummary `json:"summary"`
			}
			if err := json.Unmarshal([]byte(stdout), &cli); err != nil {
				t.Fatal(err)
			}
			a, err := app.New(app.Options{Workspace: t.TempDir(), Home: t.TempDir(), Log: io.Discard, NoGuide: true})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			owner, err := a.LaunchPrincipal("")
			if err != nil {
				t.Fatal(err)
			}
			ctx := app.WithPrincipal(context.Background(), owner)
			opened, err := a.Invoke(ctx, "Sessions", "OpenPath", []json.RawMessage{quoted(path)})
			if err != nil {
				t.Fatal(err)
			}
			params, _ := json.Marshal(debug.Params{Policy: cwl.PolicyPaper})
			got, err := a.Invoke(ctx, "Debugger", "Replay", []json.RawMessage{quoted(opened.(app.SessionInfo).Key), params})
			if err != nil {
				t.Fatal(err)
			}
			tl := got.(*debug.Timeline)
			s := cli.Summary
			evictions := 0
			for _, n := range s.Evictions {
				evictions += n
			}
			if s.Budget != tl.Budget || s.Counter != tl.Counter || string(s.Episodes) != tl.Episodes {
				t.Errorf("the command line replays τ %d, %s counter, %s episodes; the debugger τ %d, %s, %s",
					s.Budget, s.Counter, s.Episodes, tl.Budget, tl.Counter, tl.Episodes)
			}
			if evictions != len(tl.Evictions) || s.Restored != len(tl.Restored) || s.Unreachable != len(tl.Unreachable) || evictions == 0 {
				t.Errorf("the command line evicts %d, restores %d, leaves %d over budget; the debugger %d, %d, %d (and some eviction is wanted)",
					evictions, s.Restored, s.Unreachable, len(tl.Evictions), len(tl.Restored), len(tl.Unreachable))
			}
		})
	}
}

// quoted is s as a JSON string.
func quoted(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
