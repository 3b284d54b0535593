package code

import (
	"encoding/json"
	"strings"
	"testing"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
)

// FuzzReadShell checks that any command line reads without a panic and
// names a command no longer than its cut.
func FuzzReadShell(f *testing.F) {
	for _, s := range []string{"cd x && go test ./... 2>&1 | tail", "cat > a << 'EOF'\nx\nEOF", `rg "a b" -n`, "pip install a b", "'unterminated", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		sh := ReadShell(line)
		if len(sh.Command) > 120+len("…") {
			t.Fatalf("command of %d bytes", len(sh.Command))
		}
	})
}

// FuzzParseRef checks that every id ParseRef accepts renders back to
// itself.
func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"a#0", "t2:x#3.1", "L7#0.12", "#", "t:#1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if r, ok := ParseRef(id); ok {
			if again, ok := ParseRef(r.String()); !ok || again != r {
				t.Fatalf("%q -> %+v -> %q -> %+v", id, r, r.String(), again)
			}
		}
	})
}

// FuzzReadCall checks that any arguments to any tool read without a
// panic, and that the reader takes the call and a result for it.
func FuzzReadCall(f *testing.F) {
	for _, s := range []string{`{"file_path":"a.go","offset":"x"}`, `{"command":["bash"]}`, `{"command":"open"}`, `{"input":"*** Add File: a"}`, `[]`, `{"view_range":[1]}`} {
		f.Add("Read", s, "text")
		f.Add("Bash", s, "Exit code 1\nerror: x")
		f.Add("open", s, "")
	}
	cls := cwl.DefaultClassifier()
	f.Fuzz(func(t *testing.T, tool, args, result string) {
		b := session.Block{Type: session.BlockToolCall, ToolName: tool, ToolCallID: "1", Arguments: json.RawMessage(args)}
		ReadCall(&b, cls)
		r := NewReader("m", cls)
		r.Add(0, &session.Entry{ID: "a", Kind: session.EntryMessage, Message: &session.Message{Role: session.RoleAssistant, Blocks: []session.Block{b}}})
		r.Add(0, &session.Entry{ID: "b", Kind: session.EntryMessage, Message: &session.Message{Role: session.RoleTool, Blocks: []session.Block{
			{Type: session.BlockToolResult, ToolCallID: "1", Content: []session.Block{{Type: session.BlockText, Text: result}}}}}})
		for _, p := range r.Memory().Passages {
			if !strings.Contains(p.ID, "#") {
				t.Fatalf("passage id %q", p.ID)
			}
		}
	})
}
