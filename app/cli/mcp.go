package cli

import (
	"context"
	"fmt"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"ctxscope/engine/debug"
	"ctxscope/engine/mcprecall"
	"ctxscope/engine/proxy"
	"ctxscope/engine/recall"
	"ctxscope/engine/store"
	"ctxscope/engine/tokens"
	"ctxscope/search/lexical"
)

var mcpCommand = command{
	name:    "mcp",
	args:    "--policy paper|pi-cwl --budget TOKENS [--records DIR] [--conversation KEY] [--http 127.0.0.1:PORT]",
	summary: "give an agent back what the proxy's live eviction removed, over MCP (recall, context_status): stdio, or streamable HTTP on loopback",
	run:     runMCP,
}

func runMCP(env *Env, args []string) error {
	fs := newFlags("mcp", env.Stderr)
	policy := fs.String("policy", "", "the policy the proxy evicts with (paper or pi-cwl)")
	budget := fs.Int("budget", 0, "the budget τ the proxy evicts at")
	records := fs.String("records", "", "the proxy's record directory (default: the workspace's)")
	conversation := fs.String("conversation", "", "the conversation to answer about (default: the one recorded last)")
	addr := fs.String("http", "", "serve streamable HTTP on this loopback address instead of stdio")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError("no arguments beyond the flags")
	}
	if *policy != "paper" && *policy != "pi-cwl" || *budget <= 0 {
		return usageError("--policy paper|pi-cwl and --budget, as given to ctxscope proxy")
	}
	dir := *records
	if dir == "" {
		ws := env.Workspace
		if ws == "" {
			if ws, err = store.DefaultDir(); err != nil {
				return err
			}
		}
		dir = filepath.Join(ws, "proxy")
	}
	recs := &mcprecall.Records{Dir: dir, Conversation: *conversation,
		Params:  debug.Params{Policy: *policy, Budget: *budget, Episodes: "inferred"},
		Options: recall.Options{Counter: tokens.Estimator{}, Index: lexical.Build}}
	s := mcprecall.NewServer(recs, env.Version)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if *addr == "" {
		return s.Run(ctx, &mcp.StdioTransport{})
	}
	h, err := mcprecall.ListenHTTP(s, *addr, proxy.NewToken())
	if err != nil {
		return err
	}
	defer h.Close()
	// The URL line is the readiness signal scripts and tests wait for.
	fmt.Fprintf(env.Stdout, "ctxscope mcp at %s\n", h.URL())
	fmt.Fprintf(env.Stdout, "answering about the conversations recorded in %s\n", dir)
	<-ctx.Done()
	return nil
}
