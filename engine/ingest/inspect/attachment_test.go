package inspect

import (
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	att := map[string]string{"h1": "long <text>\n", "h2": "x"}
	tests := []struct {
		name, in, want string
		missing        []string
	}{
		{"none", `{"content":"plain"}`, `{"content":"plain"}`, nil},
		{"whole string", `{"content":"attachment://h1"}`, `{"content":"long \u003ctext\u003e\n"}`, nil},
		{"in arguments", `{"arguments":{"a":"attachment://h2","b":["attachment://h2"]}}`, `{"arguments":{"a":"x","b":["x"]}}`, nil},
		{"inside a longer string", `{"content":"see \"attachment://h2\" here"}`, `{"content":"see \"attachment://h2\" here"}`, nil},
		{"missing", `{"content":"attachment://nope"}`, `{"content":"attachment://nope"}`, []string{"nope"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var missing []string
			got := string(resolve([]byte(tc.in), att, func(h string) { missing = append(missing, h) }))
			if got != tc.want || strings.Join(missing, ",") != strings.Join(tc.missing, ",") {
				t.Errorf("resolve(%s) = %s, missing %v; want %s, %v", tc.in, got, missing, tc.want, tc.missing)
			}
		})
	}
}
