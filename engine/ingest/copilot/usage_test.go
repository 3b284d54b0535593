package copilot

import (
	"strings"
	"testing"

	"ctxscope/engine/session"
)

// TestUsageRecordsAreTheCallsUsage reads a Copilot CLI 1.0.10x log whose
// calls record their usage in session.usage_record events: each response
// gets its call's usage, before or after it, with the cache reads taken
// out of inputTokens (which hold them), and the shutdown's totals too.
func TestUsageRecordsAreTheCallsUsage(t *testing.T) {
	log := strings.Join([]string{
		`{"type":"session.start","data":{"sessionId":"s","copilotVersion":"1.0.102","selectedModel":"gpt-4.1"},"id":"1","timestamp":"2026-11-27T13:14:51Z"}`,
		`{"type":"user.message","data":{"content":"hi","transformedContent":"<current_datetime>x</current_datetime>\n\nhi"},"id":"2","timestamp":"2026-11-27T13:14:52Z"}`,
		`{"type":"session.usage_record","data":{"usage":{"inputTokens":1000,"outputTokens":10,"cacheReadTokens":0,"apiCallId":"c1"}},"id":"3","timestamp":"2026-11-27T13:14:53Z"}`,
		`{"type":"assistant.message","data":{"messageId":"m1","content":"one","apiCallId":"c1","outputTokens":10},"id":"4","timestamp":"2026-11-27T13:14:53Z"}`,
		`{"type":"assistant.message","data":{"messageId":"m2","content":"two","apiCallId":"c2","outputTokens":12},"id":"5","timestamp":"2026-11-27T13:14:54Z"}`,
		`{"type":"session.usage_record","data":{"usage":{"inputTokens":1100,"outputTokens":12,"cacheReadTokens":900,"apiCallId":"c2"}},"id":"6","timestamp":"2026-11-27T13:14:54Z"}`,
		`{"type":"session.shutdown","data":{"modelMetrics":{"gpt-4.1":{"requests":{"count":2},"usage":{"inputTokens":2100,"outputTokens":22,"cacheReadTokens":900}}}},"id":"7","timestamp":"2026-11-27T13:14:55Z"}`,
	}, "\n") + "\n"
	s, err := Importer{}.Import(strings.NewReader(log), "events.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []session.Usage
	for _, e := range s.Main().Entries {
		if e.Message != nil && e.Message.Role == session.RoleAssistant && e.Message.Usage != nil {
			got = append(got, *e.Message.Usage)
		}
	}
	want := []session.Usage{{Input: 1000, Output: 10}, {Input: 200, CacheRead: 900, Output: 12}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("usage per response %+v, want %+v", got, want)
	}
	if r := s.Recorded; r == nil || r.Usage.Input != 1200 || r.Usage.CacheRead != 900 {
		t.Errorf("recorded %+v, want input 1200 (2100 less the 900 read from the cache)", r)
	}
	if s.Title != "hi" {
		t.Errorf("title %q, want the user's words", s.Title)
	}
}
