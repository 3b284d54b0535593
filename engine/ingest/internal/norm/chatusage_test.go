package norm

import (
	"encoding/json"
	"testing"

	"ctxscope/engine/session"
)

func TestChatUsageSession(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want *session.Usage
	}{
		{`{"prompt_tokens":100,"completion_tokens":7}`, &session.Usage{Input: 100, Output: 7}},
		{`{"prompt_tokens":100,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":60}}`, &session.Usage{Input: 40, Output: 7, CacheRead: 60}},
		{`null`, nil},
	} {
		var u *ChatUsage
		if err := json.Unmarshal([]byte(tc.raw), &u); err != nil {
			t.Fatal(err)
		}
		got := u.Session()
		if (got == nil) != (tc.want == nil) || (got != nil && *got != *tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.raw, got, tc.want)
		}
	}
}
