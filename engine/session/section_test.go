package session

import "testing"

func TestWithoutInjected(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"<current_datetime>2026-11-27T13:14:52</current_datetime>\n\nFix the test.", "Fix the test."},
		{"<environment_context>\n  <cwd>/w</cwd>\n</environment_context>", ""},
		{"<session_context>a</session_context>\n<system-reminder>b</system-reminder> ask", "ask"},
		{"Fix <b>this</b>", "Fix <b>this</b>"},
		{"<not closed> text", "<not closed> text"},
		{"a < b > c", "a < b > c"},
	} {
		if got := WithoutInjected(tc.in); got != tc.want {
			t.Errorf("WithoutInjected(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSectionOf(t *testing.T) {
	user := &Message{Role: RoleUser}
	system := &Message{Role: RoleSystem}
	assistant := &Message{Role: RoleAssistant}
	reminder := "<system-reminder>\nToday's date is 2026-11-27.\n</system-reminder>"
	for _, tc := range []struct {
		name string
		m    *Message
		b    Block
		want Section
	}{
		{"a reminder block", user, Block{Type: BlockText, Text: reminder}, SectionInjected},
		{"two sections, leading space", user, Block{Type: BlockText, Text: "\n<environment_context><cwd>/w</cwd></environment_context>\n<user_instructions>x</user_instructions>"}, SectionInjected},
		{"a prompt after a reminder is the user's", user, Block{Type: BlockText, Text: reminder + "\nFix the test."}, SectionNone},
		{"a prompt", user, Block{Type: BlockText, Text: "Fix the test."}, SectionNone},
		{"an unclosed tag", user, Block{Type: BlockText, Text: "<draft> notes"}, SectionNone},
		{"tagged text from the assistant", assistant, Block{Type: BlockText, Text: reminder}, SectionNone},
		{"a tool result holding a reminder", user, Block{Type: BlockToolResult, Content: []Block{{Type: BlockText, Text: reminder}}}, SectionNone},
		{"a tool schema", system, Block{Type: BlockText, ToolName: "Read", Text: `{"name":"Read"}`}, SectionToolSchema},
		{"a system prompt", system, Block{Type: BlockText, Text: "You are an agent."}, SectionNone},
	} {
		if got := SectionOf(tc.m, &tc.b); got != tc.want {
			t.Errorf("%s: SectionOf = %q, want %q", tc.name, got, tc.want)
		}
	}
}
