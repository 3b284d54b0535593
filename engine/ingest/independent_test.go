package ingest_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"ctxscope/engine/ingest"
)

// The readers below count what a file records in a few lines each, from
// the raw JSON and without any of the importers' code, so that a count the
// importers get wrong cannot also be wrong in the test.

// counted is what an independent reader counts in a file.
type counted struct {
	calls, results, thinking, opaque int
	input, output, cacheRead         int // prompt tokens (cache reads included), output tokens, cache reads
	// recorded says the usage is the agent's own session total rather
	// than the sum over responses.
	recorded bool
}

// jsonLines calls fn with each line of path decoded as a generic object.
func jsonLines(t *testing.T, path string, fn func(v map[string]any)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var v map[string]any
		if json.Unmarshal(sc.Bytes(), &v) == nil {
			fn(v)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

func obj(v any, keys ...string) map[string]any {
	for _, k := range keys {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	m, _ := v.(map[string]any)
	return m
}

func list(v any) []any { l, _ := v.([]any); return l }
func str(v any) string { s, _ := v.(string); return s }
func num(v any) int    { f, _ := v.(float64); return int(f) }

// readClaude counts tool_use, tool_result and thinking blocks, and the
// usage of each response from its last line (responses share message.id).
func readClaude(t *testing.T, path string) counted {
	var c counted
	last := map[string]map[string]any{}
	var order []string
	jsonLines(t, path, func(v map[string]any) {
		msg := obj(v, "message")
		for _, b := range list(msg["content"]) {
			switch str(obj(b)["type"]) {
			case "tool_use":
				c.calls++
			case "tool_result":
				c.results++
			case "thinking", "redacted_thinking":
				c.thinking++
			}
		}
		if str(v["type"]) == "assistant" && obj(msg, "usage") != nil {
			id := str(msg["id"])
			if _, seen := last[id]; !seen {
				order = append(order, id)
			}
			last[id] = obj(msg, "usage")
		}
	})
	for _, id := range order {
		u := last[id]
		c.cacheRead += num(u["cache_read_input_tokens"])
		c.input += num(u["input_tokens"]) + num(u["cache_read_input_tokens"]) + num(u["cache_creation_input_tokens"])
		c.output += num(u["output_tokens"])
	}
	return c
}

// readCodex counts calls and their outputs among response items,
// reasoning summaries and encrypted reasoning, and the usage of each
// token_count event whose running total moved.
func readCodex(t *testing.T, path string) counted {
	var c counted
	prevTotal := -1
	jsonLines(t, path, func(v map[string]any) {
		p := obj(v, "payload")
		switch str(v["type"]) {
		case "response_item":
			switch str(p["type"]) {
			case "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "tool_search_call", "image_generation_call":
				c.calls++
			case "function_call_output", "custom_tool_call_output", "tool_search_output":
				c.results++
			case "reasoning":
				if len(list(p["summary"])) > 0 {
					c.thinking++
				}
				if str(p["encrypted_content"]) != "" {
					c.opaque++
				}
			}
			for _, part := range list(p["content"]) {
				if str(obj(part)["type"]) == "encrypted_content" {
					c.opaque++
				}
			}
		case "event_msg":
			if str(p["type"]) != "token_count" || obj(p, "info") == nil {
				return
			}
			total := num(obj(p, "info", "total_token_usage")["total_tokens"])
			if total == prevTotal {
				return
			}
			prevTotal = total
			u := obj(p, "info", "last_token_usage")
			c.input += num(u["input_tokens"])
			c.cacheRead += num(u["cached_input_tokens"])
			c.output += num(u["output_tokens"])
		}
	})
	return c
}

// readCopilot counts tool requests, completed executions, reasoning and
// the output tokens of assistant messages.
func readCopilot(t *testing.T, path string) counted {
	var c counted
	jsonLines(t, path, func(v map[string]any) {
		d := obj(v, "data")
		switch str(v["type"]) {
		case "assistant.message":
			c.calls += len(list(d["toolRequests"]))
			c.output += num(d["outputTokens"])
			if str(d["reasoningText"]) != "" {
				c.thinking++
			}
			for _, k := range []string{"reasoningOpaque", "encryptedContent"} {
				if str(d[k]) != "" {
					c.opaque++
				}
			}
		case "tool.execution_complete":
			c.results++
		}
	})
	return c
}

// readGemini counts the tool calls of a JSON chat recording, those with a
// result, the messages with thoughts, and the recorded tokens.
func readGemini(t *testing.T, path string) counted {
	var c counted
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var chat map[string]any
	if err := json.Unmarshal(data, &chat); err != nil {
		t.Fatal(err)
	}
	for _, m := range list(chat["messages"]) {
		mm := obj(m)
		for _, tc := range list(mm["toolCalls"]) {
			c.calls++
			if obj(tc)["result"] != nil {
				c.results++
			}
		}
		if len(list(mm["thoughts"])) > 0 {
			c.thinking++
		}
		tk := obj(mm, "tokens")
		c.input += num(tk["input"]) + num(tk["tool"])
		c.cacheRead += num(tk["cached"])
		c.output += num(tk["output"]) + num(tk["thoughts"])
	}
	return c
}

// readOpenHandsV1 counts actions, observations and the reasoning of
// actions, and the final accumulated usage of the agent's model.
func readOpenHandsV1(t *testing.T, path string) counted {
	var c counted
	var acc map[string]any
	jsonLines(t, path, func(v map[string]any) {
		switch str(v["kind"]) {
		case "ActionEvent":
			c.calls++
			if str(v["reasoning_content"]) != "" || len(list(v["thinking_blocks"])) > 0 {
				c.thinking++
			}
		case "ObservationEvent", "UserRejectObservation", "AgentErrorEvent":
			c.results++
		case "ConversationStateUpdateEvent":
			if str(v["key"]) == "stats" {
				acc = obj(v, "value", "usage_to_metrics", "default", "accumulated_token_usage")
			}
		}
	})
	c.input = num(acc["prompt_tokens"])
	c.cacheRead = num(acc["cache_read_tokens"])
	c.output = num(acc["completion_tokens"])
	c.recorded = true
	return c
}

// readOpenHandsResolver2024 counts, in each line's history of flat
// events, the actions beyond messages (each a command the model wrote)
// and the observations.
func readOpenHandsResolver2024(t *testing.T, path string) counted {
	var c counted
	jsonLines(t, path, func(v map[string]any) {
		for _, ev := range list(v["history"]) {
			e := obj(ev)
			switch a := str(e["action"]); {
			case a != "" && a != "message" && a != "system":
				c.calls++
			case str(e["observation"]) != "":
				c.results++
			}
		}
	})
	return c
}

// TestIndependentReaders compares the importers with the independent
// readers on the samples and on the shared corpus's Claude Code and
// Codex files.
func TestIndependentReaders(t *testing.T) {
	tests := []struct {
		path string
		read func(*testing.T, string) counted
	}{
		{"claude/testdata/samples/kvsankar-real-2.1.152.jsonl", readClaude},
		{filepath.Join(dataDir, "claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"), readClaude},
		{filepath.Join(dataDir, "claude-code/claude-code-viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"), readClaude},
		{"codex/testdata/samples/kvsankar-real-0.135.jsonl", readCodex},
		{"codex/testdata/samples/agent-sessions-small.jsonl", readCodex},
		{filepath.Join(dataDir, "codex/claude-code-log__rollout-2026-01-02-synthetic.jsonl"), readCodex},
		{"copilot/testdata/samples/agent-sessions-small.jsonl", readCopilot},
		{"copilot/testdata/samples/agent-sessions-large.jsonl", readCopilot},
		{"gemini/testdata/samples/kvsankar-real.json", readGemini},
		{"gemini/testdata/samples/agent-sessions-large.json", readGemini},
		{"openhands/testdata/samples/software-agent-sdk-goal-events.jsonl", readOpenHandsV1},
		{"openhands/testdata/samples/openhands-resolver-2024-output.jsonl", readOpenHandsResolver2024},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			if _, err := os.Stat(tc.path); err != nil {
				t.Fatalf("missing (testdata/shared/sessions): %v", err)
			}
			want := tc.read(t, tc.path)
			ss, err := ingest.ReadFileAll(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			sum := summarize(ss)
			u := sum.Usage
			if want.recorded {
				if sum.Recorded == nil {
					t.Fatal("no recorded totals")
				}
				u = sum.Recorded.Usage
			}
			got := counted{calls: sum.ToolCalls, results: sum.ToolResults, thinking: sum.Thinking, opaque: sum.Opaque,
				input: u.Prompt(), output: u.Output, cacheRead: u.CacheRead, recorded: want.recorded}
			if got != want {
				t.Errorf("importer %+v\nreader   %+v", got, want)
			}
		})
	}
}
