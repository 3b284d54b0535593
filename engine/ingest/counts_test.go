package ingest_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

// TestIndependentCounts checks the golden summaries against counts made
// independently of ctxscope (listed in the corpus's SOURCES.md), so that
// a wrong golden file cannot pass unnoticed.
func TestIndependentCounts(t *testing.T) {
	tests := []struct {
		file                            string
		sessions, calls, results, noRes int
		check                           func(t *testing.T, sum *summary)
	}{
		{file: "claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", sessions: 1, calls: 167, results: 167,
			check: func(t *testing.T, sum *summary) {
				// 5 Task subagents inline as sidechains; 170 distinct message ids.
				if sum.Threads["subagent"] != 5 || sum.Requests != 170 {
					t.Errorf("threads %v, requests %d; want 5 subagents, 170 requests", sum.Threads, sum.Requests)
				}
				// SOURCES.md sums the first line of each response (49,780
				// output tokens); the last line holds the final count.
				if sum.Usage.Output != 51933 || sum.Usage.CacheRead != 3647854 {
					t.Errorf("usage %+v; want output 51933, cacheRead 3647854", sum.Usage)
				}
			}},
		{file: "openai-chat/tau-bench__gpt-4o-airline.json", sessions: 200, calls: 1164, results: 1164,
			check: func(t *testing.T, sum *summary) {
				want := map[string]int{"system": 200, "user": 1490, "assistant": 2454, "tool": 1164}
				for role, n := range want {
					if sum.MessagesByRole[role] != n {
						t.Errorf("%s messages %d, want %d", role, sum.MessagesByRole[role], n)
					}
				}
			}},
		{file: "openhands/openhands__multi_swe_bench-example-output.jsonl", sessions: 3, calls: 105, results: 103, noRes: 2,
			check: func(t *testing.T, sum *summary) {
				// 222 events: 208 with tool_call_metadata (run 49, edit 29,
				// read 23, think 2, finish 2 actions and their observations).
				events := 0
				for _, n := range sum.Entries {
					events += n
				}
				if events != 222 || sum.ToolCallsByName["execute_bash"] != 49 || sum.ToolCallsByName["str_replace_editor"] != 52 {
					t.Errorf("events %d, calls %v", events, sum.ToolCallsByName)
				}
			}},
		{file: "pi/pi-cwl__before-compaction.jsonl", sessions: 1, calls: 454, results: 448, noRes: 6,
			check: func(t *testing.T, sum *summary) {
				if sum.Thinking != 49 || sum.Compactions != 2 || sum.MessagesOrigin[session.OriginBashExecution] != 3 {
					t.Errorf("thinking %d, compactions %d, origins %v", sum.Thinking, sum.Compactions, sum.MessagesOrigin)
				}
			}},
		{file: "pi/pi-cwl__large-session.jsonl", sessions: 1, calls: 391, results: 373, noRes: 18},
		{file: "swe-agent/swe-agent__fc-replace-from-source__marshmallow-1867.traj", sessions: 1, calls: 13, results: 13},
		{file: "inspect-ai/inspect__2025-05-12T20-27-36-04-00_browser.json", sessions: 1, calls: 4, results: 4,
			check: func(t *testing.T, sum *summary) {
				if got := sum.Usage.Input + sum.Usage.CacheRead; got != 15235 {
					t.Errorf("input tokens %d, want model_usage's 15235", got)
				}
			}},
		{file: "inspect-ai/inspect__2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval", sessions: 10},
		{file: "codex/claude-code-log__rollout-2026-01-02-synthetic.jsonl", sessions: 1, calls: 3, results: 3,
			check: func(t *testing.T, sum *summary) {
				if sum.Opaque != 1 || sum.Thinking != 1 {
					t.Errorf("thinking %d, opaque %d; want the summary as 1 thinking block and the encrypted reasoning as 1 opaque block", sum.Thinking, sum.Opaque)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			ss, err := ingest.ReadFileAll(filepath.Join(dataDir, tc.file))
			if err != nil {
				t.Fatalf("corpus file missing (testdata/shared/sessions): %v", err)
			}
			sum := summarize(ss)
			if sum.Sessions != tc.sessions || sum.ToolCalls != tc.calls || sum.ToolResults != tc.results || sum.Unanswered != tc.noRes {
				t.Errorf("sessions %d, calls %d, results %d, unanswered %d; want %d, %d, %d, %d",
					sum.Sessions, sum.ToolCalls, sum.ToolResults, sum.Unanswered, tc.sessions, tc.calls, tc.results, tc.noRes)
			}
			if tc.check != nil {
				tc.check(t, sum)
			}
		})
	}
}

// TestInspectAttachmentsResolved checks that no attachment reference
// survives import.
func TestInspectAttachmentsResolved(t *testing.T) {
	s, err := ingest.ReadFile(filepath.Join(dataDir, "inspect-ai/inspect__2025-05-12T20-27-36-04-00_browser.json"))
	if err != nil {
		t.Fatalf("corpus file missing (testdata/shared/sessions): %v", err)
	}
	for _, e := range s.Main().Entries {
		for _, b := range e.Message.Blocks {
			text := b.Text + string(b.Arguments) + b.ResultText()
			if strings.Contains(text, "attachment://") {
				t.Errorf("entry %s still refers to an attachment: %.80s", e.ID, text)
			}
		}
	}
	if first := s.Main().Entries[0].Message.Blocks[0].Text; !strings.HasPrefix(first, "Use the web browser tool") {
		t.Errorf("first message %.60q, want the resolved prompt", first)
	}
}

// TestReadSeveralSessions checks that Read returns the first session of a
// multi-session file and says how many there are.
func TestReadSeveralSessions(t *testing.T) {
	s, err := ingest.ReadFile(filepath.Join(dataDir, "openhands/openhands__multi_swe_bench-example-output.jsonl"))
	if err != nil {
		t.Fatalf("corpus file missing (testdata/shared/sessions): %v", err)
	}
	if len(s.Diagnostics) != 1 || !strings.Contains(s.Diagnostics[0].Message, "3 sessions") {
		t.Errorf("diagnostics %v, want one naming 3 sessions", s.Diagnostics)
	}
}

// TestSampleCounts checks the importers' samples against figures read
// from the files by hand or with a few lines of Python, independently of
// ctxscope (noted with each case).
func TestSampleCounts(t *testing.T) {
	tests := []struct {
		sample string
		check  func(t *testing.T, sum *summary)
	}{
		// messages[].extra.response.usage: prompt_tokens sum 61,068 of
		// which 33,662 cached; completion 2,317; usage.cost sums to
		// info.model_stats.instance_cost, 0.0893484, over 17 api_calls.
		{"minisweagent__gemini-3-pro-django-16255.traj.json", func(t *testing.T, sum *summary) {
			if sum.Requests != 17 || sum.ToolCalls != 17 || sum.Usage.Input+sum.Usage.CacheRead != 61068 ||
				sum.Usage.CacheRead != 33662 || sum.Usage.Output != 2317 || math.Abs(sum.Usage.Cost-0.0893484) > 1e-9 {
				t.Errorf("requests %d, calls %d, usage %+v", sum.Requests, sum.ToolCalls, sum.Usage)
			}
		}},
		// 10 assistant messages, each with one mswea_bash_command block,
		// each answered by a <returncode> observation.
		{"minisweagent__mini-swe-agent-github-issue.traj.json", func(t *testing.T, sum *summary) {
			if sum.ToolCalls != 10 || sum.ToolResults != 10 || sum.MessagesByRole["user"] != 1 {
				t.Errorf("calls %d, results %d, roles %v", sum.ToolCalls, sum.ToolResults, sum.MessagesByRole)
			}
		}},
		// token_count.last_token_usage: input_tokens 22,539 of which
		// cached_input_tokens 20,864; output_tokens 10.
		{"codex__kvsankar-real-0.135.jsonl", func(t *testing.T, sum *summary) {
			if sum.Usage.Input+sum.Usage.CacheRead != 22539 || sum.Usage.CacheRead != 20864 || sum.Usage.Output != 10 {
				t.Errorf("usage %+v", sum.Usage)
			}
		}},
		// tokens: input 4,383, cached 0, output 8, thoughts 28.
		{"gemini__kvsankar-real.json", func(t *testing.T, sum *summary) {
			if sum.Usage.Input != 4383 || sum.Usage.Output != 8+28 || sum.Usage.Reasoning != 28 || sum.Thinking != 1 {
				t.Errorf("usage %+v, thinking %d", sum.Usage, sum.Thinking)
			}
		}},
		// usage: input_tokens 6, cache_read 3,057, cache_creation 1,045,
		// output_tokens 16; three bookkeeping lines.
		{"claude__kvsankar-real-2.1.152.jsonl", func(t *testing.T, sum *summary) {
			if (sum.Usage != session.Usage{Input: 6, Output: 16, CacheRead: 3057, CacheWrite: 1045}) {
				t.Errorf("usage %+v", sum.Usage)
			}
		}},
		// One main transcript and one subagent file under its subagents
		// folder: one session of two threads.
		{"claude__agent-sessions-subagent", func(t *testing.T, sum *summary) {
			if sum.Sessions != 1 || sum.Threads["subagent"] != 1 {
				t.Errorf("sessions %d, threads %v", sum.Sessions, sum.Threads)
			}
		}},
		// assistant.message outputTokens: 12 + 3 + 0 + 0 + 0; four
		// tool.execution_complete events.
		{"copilot__agent-sessions-small.jsonl", func(t *testing.T, sum *summary) {
			if sum.Usage.Output != 15 || sum.ToolResults != 4 || sum.Requests != 5 {
				t.Errorf("usage %+v, results %d, requests %d", sum.Usage, sum.ToolResults, sum.Requests)
			}
		}},
		// Two sessions; the one step-finish part records input 120 and
		// output 16.
		{"opencode__agent-sessions-storage-v2", func(t *testing.T, sum *summary) {
			if sum.Sessions != 2 || sum.Usage.Input != 120 || sum.Usage.Output != 16 || sum.ToolCalls != 2 {
				t.Errorf("sessions %d, usage %+v, calls %d", sum.Sessions, sum.Usage, sum.ToolCalls)
			}
		}},
		// Legacy layout: two parts directly in part/, naming their
		// message: a bash call with its output, and a text.
		{"opencode__agent-sessions-storage-legacy", func(t *testing.T, sum *summary) {
			if sum.ToolCalls != 1 || sum.ToolResults != 1 || sum.MessagesByRole["assistant"] != 1 {
				t.Errorf("calls %d, results %d, roles %v", sum.ToolCalls, sum.ToolResults, sum.MessagesByRole)
			}
		}},
	}
	all := samples(t)
	for _, tc := range tests {
		t.Run(tc.sample, func(t *testing.T) {
			path, ok := all[tc.sample]
			if !ok {
				t.Fatalf("no sample %s", tc.sample)
			}
			ss, failed, err := ingest.ReadPaths([]string{path})
			if err != nil || len(failed) > 0 {
				t.Fatalf("%v %v", err, failed)
			}
			tc.check(t, summarize(ss))
		})
	}
}
