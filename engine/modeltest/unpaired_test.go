package modeltest

import "testing"

func TestUnpaired(t *testing.T) {
	for _, tc := range []struct {
		name, path, body string
		bad              int
	}{
		{"chat, paired", "/v1/chat/completions", `{"messages":[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[{"id":"c1","function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"r"}]}`, 0},
		{"chat, a result without its call", "/v1/chat/completions", `{"messages":[{"role":"user","content":"x"},{"role":"tool","tool_call_id":"c9","content":"r"}]}`, 1},
		{"anthropic, a call without its result", "/v1/messages", `{"messages":[{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}]},{"role":"user","content":"go on"}]}`, 1},
	} {
		if got := (Request{Path: tc.path, Body: []byte(tc.body)}).Unpaired(); len(got) != tc.bad {
			t.Errorf("%s: %v", tc.name, got)
		}
	}
}
