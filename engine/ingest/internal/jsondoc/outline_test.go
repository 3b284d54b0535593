package jsondoc

import (
	"strings"
	"testing"
)

func TestOutline(t *testing.T) {
	long := strings.Repeat("x", 900_000)
	for _, tc := range []struct{ name, in, want string }{
		{"keys after a huge value", `{"info":{"submission":"` + long + `","exit_status":"Submitted"},"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"x"}],"trajectory_format":"mini-swe-agent-1"}`,
			`{"info":{"submission":"","exit_status":"Submitted"},"messages":[{"role":"user","content":"hi"}],"trajectory_format":"mini-swe-agent-1"}`},
		{"an array", `[{"role":"user","parts":[{"text":"a"},{"text":"b"}]},{"role":"model"}]`, `[{"role":"user","parts":[{"text":"a"}]}]`},
		{"deep values are cut", `{"a":{"b":{"c":{"d":{"e":1}}}}}`, `{"a":{"b":{"c":{"d":{}}}}}`},
		{"scalars", `{"n":1.5,"t":true,"z":null}`, `{"n":1.5,"t":true,"z":null}`},
	} {
		got, err := Outline(strings.NewReader(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %s, %v; want %s", tc.name, got, err, tc.want)
		}
	}
	if _, err := Outline(strings.NewReader(`{"a":[1,2`)); err == nil {
		t.Error("a truncated document outlined without an error")
	}
}
