package cwl

import (
	"testing"

	"ctxscope/engine/session"
)

func TestInspects(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"cat src/a.go", true},
		{"cd repo && git log --oneline -5", true},
		{"grep -rn foo . | head -20", true},
		{"sed -n 1,40p a.go", true},
		{"sed -i s/a/b/ a.go", false},
		{"go test ./...", false},
		{"npm run build && ls dist", false},
		{"git status", false},
		{"cd repo", false},
		{"cat > notes.md <<EOF", false},
		{"ls -la >> listing.txt", false},
		{"grep -n add calc.sh 2>&1 | head", true},
		{"ls missing 2>/dev/null", true},
		{"", false},
	} {
		if got := inspects(c.line); got != c.want {
			t.Errorf("inspects(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

// TestLookKeys makes the keys under which a later identical call is a
// look-back: reads by path, searches by pattern and place, inspecting
// commands by their whitespace-folded line; other calls have none.
func TestLookKeys(t *testing.T) {
	call := func(name, args string) session.Block {
		return session.Block{Type: session.BlockToolCall, ToolCallID: name + args, ToolName: name, Arguments: []byte(args)}
	}
	msgs := []*session.Message{{Role: session.RoleAssistant, Blocks: []session.Block{
		call("read", `{"path":"./src/a.go"}`),
		call("grep", `{"pattern":"NewPager","path":"src"}`),
		call("bash", `{"command":"cat  src/a.go"}`),
		call("bash", `{"command":"go test ./..."}`),
		call("edit", `{"path":"src/a.go"}`),
		{Type: session.BlockText, Text: "done"},
	}}}
	p := NewPlan(msgs, nil, estimateLedger(), DefaultClassifier())
	want := []struct{ kind, key string }{
		{"read", "read src/a.go"},
		{"search", "search NewPager @src"},
		{"run", "run cat src/a.go"},
		{"", ""}, {"", ""}, {"", ""},
	}
	for b, w := range want {
		if kind, key := lookKey(p, b); kind != w.kind || key != w.key {
			t.Errorf("block %d: (%q, %q), want (%q, %q)", b, kind, key, w.kind, w.key)
		}
	}
}
