package codex

import (
	"strings"
	"testing"

	"ctxscope/engine/session"
)

func importText(t *testing.T, text string) *session.Session {
	t.Helper()
	if !(Importer{}).Sniff([]byte(text)) {
		t.Fatalf("not sniffed as codex:\n%s", text)
	}
	s, err := Importer{}.Import(strings.NewReader(text), "r.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestModernResponseGroupingUsageAndCompaction(t *testing.T) {
	s := importText(t, `{"timestamp":"2026-01-02T03:04:05Z","type":"session_meta","payload":{"id":"child","cwd":"/w","cli_version":"0.50.0","source":{"subagent":{"parent_thread_id":"parent"}},"base_instructions":{"text":"be brief"}}}
{"timestamp":"2026-01-02T03:04:06Z","type":"turn_context","payload":{"model":"gpt-5"}}
{"timestamp":"2026-01-02T03:04:07Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}
{"timestamp":"2026-01-02T03:04:08Z","type":"response_item","payload":{"type":"reasoning","summary":[],"encrypted_content":"gAAAA"}}
{"timestamp":"2026-01-02T03:04:08Z","type":"event_msg","payload":{"type":"agent_reasoning","text":"x"}}
{"timestamp":"2026-01-02T03:04:09Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}}
{"timestamp":"2026-01-02T03:04:09Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"not json","call_id":"c2"}}
{"timestamp":"2026-01-02T03:04:10Z","type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":100,"cached_input_tokens":60,"output_tokens":9,"reasoning_output_tokens":4}}}}
{"timestamp":"2026-01-02T03:04:11Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"a\",\"metadata\":{\"exit_code\":0}}"}}
{"timestamp":"2026-01-02T03:04:11Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"err"}}
{"timestamp":"2026-01-02T03:04:12Z","type":"compacted","payload":{"message":"summary of it"}}
{"timestamp":"2026-01-02T03:04:13Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}}
`)
	if len(s.Diagnostics) > 0 {
		t.Fatalf("diagnostics %v", s.Diagnostics)
	}
	m := s.Main()
	if m.Kind != session.ThreadSubagent || m.ParentID != "parent" || m.ID != "child" || s.Agent != "codex 0.50.0" {
		t.Errorf("thread %s %s parent %s agent %s", m.Kind, m.ID, m.ParentID, s.Agent)
	}
	reqs := session.BuildRequests(m)
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	first := reqs[0].Entry.Message
	if len(first.Blocks) != 3 || first.Blocks[0].Type != session.BlockOpaque || first.Blocks[0].Size == 0 || first.Model != "gpt-5" {
		t.Errorf("first response blocks %+v model %s", first.Blocks, first.Model)
	}
	if string(first.Blocks[1].Arguments) != `{"command":["ls"]}` || string(first.Blocks[2].Arguments) != `"not json"` {
		t.Errorf("arguments %s and %s", first.Blocks[1].Arguments, first.Blocks[2].Arguments)
	}
	if u := first.Usage; u == nil || u.Input != 40 || u.CacheRead != 60 || u.Output != 9 || u.Reasoning != 4 {
		t.Errorf("usage %+v", first.Usage)
	}
	if in := reqs[0].Input(); len(in) != 2 || in[0].Role != session.RoleSystem {
		t.Errorf("first request input %d messages", len(in))
	}
	if !reqs[1].AfterCompaction || len(reqs[1].Input()) != 1 {
		t.Errorf("second request after compaction: %v, %d inputs", reqs[1].AfterCompaction, len(reqs[1].Input()))
	}
}

func TestLegacyRollout(t *testing.T) {
	s := importText(t, `{"id":"old-1","timestamp":"2025-05-01T10:00:00Z","instructions":"you are codex","git":{}}
{"record_type":"state"}
{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}
{"type":"local_shell_call","call_id":"c1","status":"completed","action":{"type":"exec","command":["ls"]}}
{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"x\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.1}}"}
{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hello"}]}
`)
	if len(s.Diagnostics) > 0 {
		t.Fatalf("diagnostics %v", s.Diagnostics)
	}
	if s.ID != "old-1" || s.Main().Entries[1].Message.Role != session.RoleSystem {
		t.Errorf("id %s, second entry %+v", s.ID, s.Main().Entries[1])
	}
	if n := len(session.BuildRequests(s.Main())); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

// TestUsageOncePerResponse checks that each response's usage counts once,
// so that the responses add up to the total the agent recorded: repeated
// token_count events (the same running total again) add nothing, and
// where token_usage_records give the usage by response id, they alone
// count, a repeated record once.
func TestUsageOncePerResponse(t *testing.T) {
	const head = `{"timestamp":"2026-01-02T03:04:05Z","type":"session_meta","payload":{"id":"s","cli_version":"0.171.0"}}
{"timestamp":"2026-01-02T03:04:06Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}
`
	call := func(id string) string {
		return `{"timestamp":"2026-01-02T03:04:07Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":"` + id + `"}}
{"timestamp":"2026-01-02T03:04:08Z","type":"response_item","payload":{"type":"function_call_output","call_id":"` + id + `","output":"ok"}}
`
	}
	const reasoning = `{"timestamp":"2026-01-02T03:04:07Z","type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"look"}]}}
`
	count := func(last, total string) string {
		return `{"timestamp":"2026-01-02T03:04:09Z","type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":` + last + `,"total_token_usage":` + total + `}}}
`
	}
	record := func(resp, usage string) string {
		return `{"timestamp":"2026-01-02T03:04:09Z","type":"token_usage_record","payload":{"response_id":"` + resp + `","usage":` + usage + `}}
`
	}
	const (
		u1 = `{"input_tokens":100,"cached_input_tokens":0,"output_tokens":10}`
		u2 = `{"input_tokens":150,"cached_input_tokens":90,"output_tokens":5}`
		t1 = u1
		t2 = `{"input_tokens":250,"cached_input_tokens":90,"output_tokens":15}`
	)
	for _, tc := range []struct {
		name    string
		rollout string
	}{
		{"token_count per response", head + call("a") + count(u1, t1) + call("b") + count(u2, t2)},
		{"token_count repeated after each response", head + call("a") + count(u1, t1) + count(u1, t1) + call("b") + count(u2, t2) + count(u2, t2)},
		{"a token_count between a response's items, repeated after them", head + reasoning + count(u1, t1) + call("a") + count(u1, t1) + call("b") + count(u2, t2)},
		{"token_usage_records", head + call("a") + record("r1", u1) + count(u1, t1) + call("b") + record("r2", u2) + count(u2, t2)},
		{"a token_usage_record repeated", head + call("a") + record("r1", u1) + record("r1", u1) + count(u1, t1) + call("b") + record("r2", u2) + count(u2, t2) + count(u2, t2)},
	} {
		s := importText(t, tc.rollout)
		if len(s.Diagnostics) > 0 {
			t.Errorf("%s: diagnostics %v", tc.name, s.Diagnostics)
		}
		var sum session.Usage
		var per []int
		for _, q := range session.BuildRequests(s.Main()) {
			if u := q.Entry.Message.Usage; u != nil {
				sum.Input += u.Input
				sum.CacheRead += u.CacheRead
				sum.Output += u.Output
				per = append(per, u.Prompt())
			}
		}
		if s.Recorded == nil || sum != s.Recorded.Usage {
			t.Errorf("%s: the responses add up to %+v, the agent recorded %+v", tc.name, sum, s.Recorded)
		}
		if len(per) != 2 || per[0] != 100 || per[1] != 150 {
			t.Errorf("%s: per-response input %v, want [100 150]", tc.name, per)
		}
	}
}
