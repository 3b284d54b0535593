package openhands

import (
	"strings"
	"testing"

	"ctxscope/engine/session"
)

// TestResponseGrouping reads two actions of one model response, one action
// without a recorded response, their observations and an error.
func TestResponseGrouping(t *testing.T) {
	resp := `"model_response":{"id":"r1","model":"m","choices":[{"message":{"content":"two things","tool_calls":[{"id":"t1","function":{"name":"execute_bash","arguments":"{\"command\":\"ls\"}"}},{"id":"t2","function":{"name":"str_replace_editor","arguments":"{\"path\":\"/a\"}"}}]}}],"usage":{"prompt_tokens":100,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":40}}}`
	in := `[
{"id":0,"source":"agent","action":"system","args":{"content":"sys"}},
{"id":1,"source":"user","action":"message","args":{"content":"do it"}},
{"id":2,"source":"agent","action":"run","args":{"command":"ls"},"tool_call_metadata":{"function_name":"execute_bash","tool_call_id":"t1",` + resp + `}},
{"id":3,"source":"agent","action":"read","args":{"path":"/a"},"tool_call_metadata":{"function_name":"str_replace_editor","tool_call_id":"t2",` + resp + `}},
{"id":4,"source":"agent","observation":"run","content":"a b","cause":2,"tool_call_metadata":{"function_name":"execute_bash","tool_call_id":"t1"}},
{"id":5,"source":"agent","observation":"read","content":"text","cause":3,"tool_call_metadata":{"function_name":"str_replace_editor","tool_call_id":"t2"}},
{"id":6,"source":"agent","action":"think","args":{"thought":"hmm"},"tool_call_metadata":{"function_name":"think","tool_call_id":"t3"}},
{"id":7,"source":"agent","observation":"error","content":"bad"},
{"id":8,"source":"environment","observation":"agent_state_changed","extras":{}}
]`
	s, err := Importer{}.Import(strings.NewReader(in), "h.json")
	if err != nil || len(s.Diagnostics) > 0 {
		t.Fatalf("%v %v", err, s.Diagnostics)
	}
	es := s.Main().Entries
	if len(es) != 8 {
		t.Fatalf("%d entries, want 8", len(es))
	}
	m := es[2].Message
	if len(m.Blocks) != 3 || m.Blocks[0].Text != "two things" || string(m.Blocks[2].Arguments) != `{"path":"/a"}` {
		t.Errorf("grouped response: %+v", m.Blocks)
	}
	if u := m.Usage; u == nil || u.Input != 60 || u.CacheRead != 40 || u.Output != 7 {
		t.Errorf("usage %+v", m.Usage)
	}
	if th := es[5].Message; th.Blocks[0].Text != "hmm" || th.Blocks[1].ToolName != "think" {
		t.Errorf("think action: %+v", th.Blocks)
	}
	if e := es[6].Message; e.Role != session.RoleUser || e.Blocks[0].Text != "bad" {
		t.Errorf("error observation: %+v", e)
	}
	if n := len(session.BuildRequests(s.Main())); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}
