package ingest_test

import (
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
				t.Skipf("corpus file not available: %v", err)
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
		t.Skipf("corpus file not available: %v", err)
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
		t.Skipf("corpus file not available: %v", err)
	}
	if len(s.Diagnostics) != 1 || !strings.Contains(s.Diagnostics[0].Message, "3 sessions") {
		t.Errorf("diagnostics %v, want one naming 3 sessions", s.Diagnostics)
	}
}
