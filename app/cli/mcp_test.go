package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"ctxscope/engine/mcprecall/mcprecalltest"
)

// TestMCPCommandOverStdio starts `ctxscope mcp` as an agent would, a
// process whose stdin and stdout carry MCP, over the records of a
// conversation under live eviction in the workspace's proxy directory,
// and calls its tools: context_status lists what was evicted, recall
// brings back an evicted file. Usage mistakes end with exit code 2.
func TestMCPCommandOverStdio(t *testing.T) {
	ws := t.TempDir()
	const budget = "3000"
	mcprecalltest.RecordConversation(t, filepath.Join(ws, "proxy"), 3000)

	cmd := exec.Command(os.Args[0], "--workspace", ws, "mcp", "--policy", "paper", "--budget", budget)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	text := func(name string, args map[string]any) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.IsError || len(res.Content) != 1 {
			t.Fatalf("%s: %+v", name, res)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	if got := text("context_status", map[string]any{}); !strings.Contains(got, "Policy paper at τ 3000") || !strings.Contains(got, "tool output (read)") {
		t.Errorf("context_status:\n%s", got)
	}
	if got := text("recall", map[string]any{"query": "parser.go"}); !strings.Contains(got, "parseToken") {
		t.Errorf("recall:\n%s", got)
	}

	if code, _, stderr := run(t, "mcp", "--budget", "3000"); code != 2 || !strings.Contains(stderr, "--policy") {
		t.Errorf("without --policy: exit %d, %s", code, stderr)
	}
}
