package cli

import (
	"context"
	"fmt"
	"io"
	"os/signal"
	"strings"
	"syscall"

	"ctxscope/app"
)

var proxyCommand = command{
	name:    "proxy",
	args:    "[--addr 127.0.0.1:PORT] [--upstream URL | --upstream PROVIDER=URL]... [--policy paper|pi-cwl --budget TOKENS [--step TOKENS]]",
	summary: "record every model request of the agents pointed at it, into the workspace, as they run",
	run:     runProxy,
}

// upstreamFlags collects repeated --upstream values.
type upstreamFlags []string

func (u *upstreamFlags) String() string     { return strings.Join(*u, ",") }
func (u *upstreamFlags) Set(v string) error { *u = append(*u, v); return nil }

func runProxy(env *Env, args []string) error {
	fs := newFlags("proxy", env.Stderr)
	addr := fs.String("addr", "", "loopback address to listen on (default: the last one used, else a free port)")
	policy := fs.String("policy", "", "apply CWL eviction to the requests as they pass (paper or pi-cwl; default: forward them as sent)")
	budget := fs.Int("budget", 0, "the token budget τ of --policy")
	step := fs.Int("step", 0, "hysteresis of --policy: evict down to τ - step when over τ, and keep that until over τ again (default 0: evict to τ at every request)")
	var ups upstreamFlags
	fs.Var(&ups, "upstream", "where requests go: URL for every provider, or anthropic=URL, openai=URL, gemini=URL (default: each provider's own API)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError("no arguments beyond the flags")
	}
	a, release, err := NewApp(env, "", env.Stderr)
	if err != nil {
		return err
	}
	defer release()
	defer a.Close()
	if (*policy == "") != (*budget == 0) {
		return usageError("--policy and --budget go together")
	}
	settings := app.ProxySettings{On: true, Addr: *addr, Policy: *policy, Budget: *budget, Step: *step}
	if *policy == "" {
		settings.Policy = "off"
	}
	if len(ups) > 0 {
		settings.Upstreams = ups
	}
	st, err := a.Live().SetProxy(context.Background(), settings)
	if err != nil {
		return err
	}
	// Off again when this command ends, so that the desktop does not
	// start a second proxy on the same address; the address and its
	// secret path stay for the next run.
	defer a.Live().SetProxy(context.Background(), app.ProxySettings{On: false})
	printProxy(env.Stdout, st)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	return nil
}

// printProxy says where the proxy listens, where it records, where it
// sends requests, how it evicts, and how to point each agent at it.
func printProxy(w io.Writer, st app.ProxyState) {
	// The base URL line is the readiness signal scripts and tests wait
	// for.
	fmt.Fprintf(w, "ctxscope proxy at %s\n", st.BaseURL)
	fmt.Fprintf(w, "records in %s; each conversation is a session of the workspace, growing as the agent runs\n", st.Dir)
	for p, u := range st.Upstreams {
		fmt.Fprintf(w, "upstream %s: %s\n", p, u)
	}
	if st.Policy != "" {
		fmt.Fprintf(w, "evicting live under the %s policy at τ = %d", st.Policy, st.Budget)
		if st.Step > 0 {
			fmt.Fprintf(w, ", in steps down to τ - %d", st.Step)
		}
		fmt.Fprintln(w, " (Anthropic Messages, Chat Completions, Responses and Gemini requests)")
		// With a step, the evictions the proxy holds are those of τ - step
		// at the request that went over τ: what a replay at τ - step
		// evicts from then on holds them all.
		fmt.Fprintf(w, "recall over MCP, for the agent's MCP settings: ctxscope mcp --records %s --policy %s --budget %d\n", st.Dir, st.Policy, st.Budget-st.Step)
	}
	fmt.Fprintln(w, "point an agent at it:")
	for _, s := range st.Agents {
		fmt.Fprintf(w, "  %s:\n    %s\n", s.Agent, strings.ReplaceAll(s.Line, "\n", "\n    "))
	}
}
