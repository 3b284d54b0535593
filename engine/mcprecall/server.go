package mcprecall

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultRecallTokens is the most a recall returns when the agent names
// no cap.
const DefaultRecallTokens = 2000

// maxRecallTokens bounds the cap an agent may ask for.
const maxRecallTokens = 20000

// RecallInput is what the recall tool takes.
type RecallInput struct {
	Query     string `json:"query" jsonschema:"what you are looking for, in your own words: a file, a symbol, an error, what a command printed"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"the most tokens to bring back (default 2000)"`
}

// StatusInput is what the context_status tool takes: nothing.
type StatusInput struct{}

// NewServer returns an MCP server whose recall and context_status tools
// answer about the conversation recs names.
func NewServer(recs *Records, version string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "ctxscope", Title: "ctxscope recall", Version: version}, &mcp.ServerOptions{
		Instructions: "ctxscope evicts old tool outputs and reasoning from this conversation to keep it under its token budget; " +
			"a stub such as [evicted by ctxscope at L3: 1204 tokens; ...] marks what it removed. " +
			"Call recall with what you need to bring it back, and context_status to see what was evicted.",
	})
	mcp.AddTool(s, &mcp.Tool{
		Name: "recall",
		Description: "Bring back content that ctxscope evicted from this conversation's context: the evicted tool outputs, " +
			"tool inputs and reasoning most relevant to the query, within a token cap. Use it instead of re-running a read " +
			"or a command whose output was replaced by an [evicted by ctxscope ...] stub.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in RecallInput) (*mcp.CallToolResult, any, error) {
		text, err := recs.recall(ctx, in)
		return result(text, err), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "context_status",
		Description: "List what ctxscope evicted from this conversation's context: each block, its eviction level (L1 reasoning, L2 bulk tool output, L3 tool input and output, L4 whole episode), its episode and its size.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, _ StatusInput) (*mcp.CallToolResult, any, error) {
		text, err := recs.status(ctx)
		return result(text, err), nil, nil
	})
	return s
}

// result is a tool's answer: its text, or its error as a tool error the
// agent reads (not a protocol error).
func result(text string, err error) *mcp.CallToolResult {
	if err != nil {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "ctxscope: " + err.Error()}}}
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// recall answers the recall tool.
func (r *Records) recall(ctx context.Context, in RecallInput) (string, error) {
	if strings.TrimSpace(in.Query) == "" {
		return "", fmt.Errorf("recall needs a query")
	}
	budget := in.MaxTokens
	if budget <= 0 {
		budget = DefaultRecallTokens
	}
	budget = min(budget, maxRecallTokens)
	st, err := r.current(ctx)
	if err != nil {
		return "", err
	}
	got, err := st.index.Ask(ctx, st.life, st.request, in.Query, budget)
	if err != nil {
		return "", err
	}
	if len(got) == 0 {
		return fmt.Sprintf("Nothing evicted from this conversation matches %q (within %d tokens).", in.Query, budget), nil
	}
	var b strings.Builder
	total := 0
	for _, p := range got {
		total += p.Tokens
	}
	fmt.Fprintf(&b, "Recalled %d passages (%d tokens) that ctxscope evicted from this conversation:\n", len(got), total)
	for _, p := range got {
		fmt.Fprintf(&b, "\n--- evicted at L%d", p.Level)
		if p.Episode != "" {
			fmt.Fprintf(&b, " from episode %q", p.Episode)
		}
		b.WriteString(" ---\n")
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// status answers the context_status tool.
func (r *Records) status(ctx context.Context) (string, error) {
	st, err := r.current(ctx)
	if err != nil {
		return "", err
	}
	list := st.index.Status(st.life, st.request)
	var b strings.Builder
	total := 0
	for _, e := range list {
		total += e.Tokens
	}
	fmt.Fprintf(&b, "Policy %s at τ %d. At request %d of this conversation, %d blocks are evicted (%d tokens).\n",
		st.life.Policy, st.life.Budget, st.request+1, len(list), total)
	for _, e := range list {
		fmt.Fprintf(&b, "- L%d %s", e.Level, e.Kind)
		if e.Tool != "" {
			fmt.Fprintf(&b, " (%s)", e.Tool)
		}
		if e.Episode != "" {
			fmt.Fprintf(&b, " from episode %q", e.Episode)
		}
		fmt.Fprintf(&b, ", evicted at request %d: %d tokens. %s\n", e.Request+1, e.Tokens, e.Preview)
	}
	return b.String(), nil
}
