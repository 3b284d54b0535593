package debug

import (
	"strconv"
	"strings"
	"testing"

	"ctxscope/engine/session"
)

// TestRecentContext reads a look-back's context from inputs written as a
// string of letters: u a user turn, a an assistant message, t a tool
// result (as a user message of tool results alone, the way some agents
// send them, or a tool message: r), s the system prompt. The context is
// the last user turn and the last four assistant messages, in order.
func TestRecentContext(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want: the indexes of the entries kept
	}{
		{"suatatat", "1,2,4,6"},              // the turn, then the agent's calls
		{"suatatatatat", "1,4,6,8,10"},       // the turn, with the last four calls
		{"suatatatatatatat", "1,8,10,12,14"}, // the turn far back, with the last four calls
		{"suatatatau", "2,4,6,8,9"},          // the user just spoke: the calls before it
		{"saratat", "1,3,5"},                 // no user turn
		{"suuatat", "2,3,5"},                 // only the last turn
		{"s", ""},
	} {
		t.Run(tc.in, func(t *testing.T) {
			var in []*session.Entry
			for _, c := range tc.in {
				m := &session.Message{}
				switch c {
				case 'u':
					m.Role, m.Blocks = session.RoleUser, []session.Block{{Type: session.BlockText, Text: "do it"}}
				case 'a':
					m.Role, m.Blocks = session.RoleAssistant, []session.Block{{Type: session.BlockToolCall, ToolCallID: "c"}}
				case 't':
					m.Role, m.Blocks = session.RoleUser, []session.Block{{Type: session.BlockToolResult, ToolCallID: "c"}}
				case 'r':
					m.Role, m.Blocks = session.RoleTool, []session.Block{{Type: session.BlockToolResult, ToolCallID: "c"}}
				case 's':
					m.Role, m.Blocks = session.RoleSystem, []session.Block{{Type: session.BlockText, Text: "rules"}}
				}
				in = append(in, &session.Entry{Message: m})
			}
			var got []string
			for _, e := range recentContext(in) {
				for i, x := range in {
					if x == e {
						got = append(got, strconv.Itoa(i))
					}
				}
			}
			if g := strings.Join(got, ","); g != tc.want {
				t.Errorf("kept %q, want %q", g, tc.want)
			}
		})
	}
}
