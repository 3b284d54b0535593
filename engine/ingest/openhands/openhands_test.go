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

// TestActionsWrittenAsText reads OpenHands histories from before function
// calling: actions without tool_call_metadata become tool calls named
// after the action, with the thought as text, and the observation of
// their kind (or the one whose cause names them) their result; flat
// events of a 2024 resolver line have no source, and its messages' roles
// follow the conversation.
func TestActionsWrittenAsText(t *testing.T) {
	type want struct {
		roles   string // the messages' roles, in order
		calls   string // name:arguments of each call
		results string // call id:text of each result, "!" marking an error
	}
	for _, tc := range []struct {
		name string
		in   string
		want want
	}{
		{"a flat resolver line", `{"issue":{"title":"Add a license"},"instruction":"fix it","history":[
{"content":"fix it","action":"message","wait_for_response":false},
{"command":"ls","thought":"Look first.","keep_prompt":true,"action":"run","is_confirmed":"confirmed"},
{"content":"a b","command_id":-1,"command":"ls","exit_code":0,"observation":"run"},
{"code":"print(1)","thought":"","action":"run_ipython","kernel_init_code":"x"},
{"content":"Traceback","code":"print(1)","observation":"run_ipython","exit_code":1},
{"content":"Shall I go on?","action":"message","wait_for_response":true},
{"content":"Please continue.","action":"message","wait_for_response":false},
{"outputs":{},"thought":"Done.","action":"finish"}],"metrics":{"accumulated_cost":0.5,"costs":[0.1,0.2,0.1,0.1]}}`,
			want{"user assistant tool assistant tool assistant user assistant",
				`run:{"command":"ls"} run_ipython:{"code":"print(1)"} finish:{"outputs":{}}`,
				"oh-p2:a b oh-p4:!Traceback"}},
		{"sourced events without tool calls, answered by cause", `[
{"id":1,"source":"user","action":"message","args":{"content":"go"}},
{"id":2,"source":"agent","action":"run","args":{"command":"make","thought":"Build."}},
{"id":3,"source":"agent","action":"read","args":{"path":"a.go"}},
{"id":4,"source":"environment","observation":"agent_state_changed","extras":{}},
{"id":5,"source":"agent","observation":"read","content":"package a","cause":3},
{"id":6,"source":"agent","observation":"run","content":"fail","cause":2,"extras":{"exit_code":2}}]`,
			want{"user assistant assistant tool tool",
				`run:{"command":"make","thought":"Build."} read:{"path":"a.go"}`,
				"oh-e3:package a oh-e2:!fail"}},
	} {
		s, err := Importer{}.Import(strings.NewReader(tc.in), "h.json")
		if err != nil || len(s.Diagnostics) > 0 {
			t.Fatalf("%s: %v %v", tc.name, err, s.Diagnostics)
		}
		var roles, calls, results []string
		for _, e := range s.Main().Entries {
			m := e.Message
			if m == nil {
				continue
			}
			roles = append(roles, string(m.Role))
			for _, b := range m.ToolCalls() {
				calls = append(calls, b.ToolName+":"+string(b.Arguments))
			}
			for _, b := range m.ToolResults() {
				mark := ""
				if b.IsError {
					mark = "!"
				}
				results = append(results, b.ToolCallID+":"+mark+b.ResultText())
			}
		}
		got := want{strings.Join(roles, " "), strings.Join(calls, " "), strings.Join(results, " ")}
		if got != tc.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
}
