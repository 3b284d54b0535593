package gemini

import (
	"strings"
	"testing"

	"ctxscope/engine/session"
)

// TestChatOfCLI061 reads the JSON Lines chat Gemini CLI 0.61 writes: the
// session context set by a $set record, the prompt, a response whose call
// the model named with an id (logged as NAME__ID) and whose result it
// holds, and the user record that repeats that result. The context is a
// user message, the call keeps the model's id, the result is read once,
// and no empty user turn is made; the title is the prompt.
func TestChatOfCLI061(t *testing.T) {
	chat := strings.Join([]string{
		`{"sessionId":"s","projectHash":"p","startTime":"2026-11-27T13:20:36.605Z","kind":"main"}`,
		`{"$set":{"messages":[{"id":"c1","timestamp":"2026-11-27T13:20:36.606Z","type":"user","content":[{"text":"<session_context>\nThis is the Gemini CLI.\n</session_context>"}]}]}}`,
		`{"id":"u1","timestamp":"2026-11-27T13:20:36.620Z","type":"user","content":[{"text":"Fix the test."}]}`,
		`{"id":"g1","timestamp":"2026-11-27T13:20:36.726Z","type":"gemini","content":"Reading.","thoughts":[],"tokens":{"input":100,"output":5,"cached":40,"thoughts":0,"tool":0,"total":105},"model":"gemini-2.5-pro",` +
			`"toolCalls":[{"id":"read_file__gcall_1","name":"read_file","args":{"file_path":"/w/a"},"status":"success","result":[{"functionResponse":{"id":"read_file__gcall_1","name":"read_file","response":{"output":"contents"}}}]}]}`,
		`{"id":"u2","timestamp":"2026-11-27T13:20:36.747Z","type":"user","content":[{"functionResponse":{"id":"read_file__gcall_1","name":"read_file","response":{"output":"contents"}}}]}`,
	}, "\n") + "\n"
	s, err := Importer{}.Import(strings.NewReader(chat), "session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range s.Main().Entries {
		m := e.Message
		if m == nil {
			continue
		}
		d := string(m.Role)
		for _, b := range m.Blocks {
			switch b.Type {
			case session.BlockText:
				d += " text"
			case session.BlockToolCall:
				d += " call:" + b.ToolCallID
			case session.BlockToolResult:
				d += " result:" + b.ToolCallID + "=" + b.Content[0].Text
			}
		}
		got = append(got, d)
	}
	want := []string{"user text", "user text", "assistant text call:gcall_1", "tool result:gcall_1=contents"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("messages %q, want %q", got, want)
	}
	if s.Title != "Fix the test." {
		t.Errorf("title %q, want the prompt", s.Title)
	}
}
