package app

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"time"

	"ctxscope/engine/evict"
	"ctxscope/engine/proxy"
	"ctxscope/engine/session"
	"ctxscope/engine/tail"
)

// proxySetting keeps the recording proxy's settings across launches:
// whether it runs, its address and its secret path (so that an agent
// configured once keeps working), and its upstreams.
const proxySetting = "live.proxy"

// proxyDirName is the folder of the workspace the proxy writes its
// records in, one file per conversation.
const proxyDirName = "proxy"

// ProxySettings are what the user chooses about the recording proxy.
type ProxySettings struct {
	On bool `json:"on"`
	// Addr is the loopback address to listen on; "" keeps the last one
	// (or picks a free port the first time).
	Addr string `json:"addr"`
	// Upstreams are where each provider's requests go: "URL" for all of
	// them, or "anthropic=URL", "openai=URL", "gemini=URL", or "default"
	// for the providers' own endpoints; none keeps the last ones.
	Upstreams []string `json:"upstreams"`
	// Policy, when "paper" or "pi-cwl", applies CWL eviction to the
	// requests as they cross the proxy, at Budget tokens (docs/live-cwl.md);
	// "" forwards them as sent. "off" turns eviction off.
	Policy string `json:"policy"`
	Budget int    `json:"budget"`
	// Step is the eviction's hysteresis in tokens: a request over Budget
	// is evicted down to Budget - Step, and those evictions are kept
	// while the requests stay under Budget, so that the prompt's cached
	// prefix is not broken at every request (0: evict to Budget each
	// time).
	Step int `json:"step"`
}

// storedProxy is the proxy setting as kept: the choices, the secret, and
// the conversations whose eviction the user turned off.
type storedProxy struct {
	ProxySettings
	Token  string   `json:"token"`
	Paused []string `json:"paused,omitempty"`
}

// ProxyState is the recording proxy as it is.
type ProxyState struct {
	On bool `json:"on"`
	// BaseURL is what an agent's base URL is set to (with /v1 after it
	// where the agent's setting includes the version).
	BaseURL string `json:"baseUrl"`
	Addr    string `json:"addr"`
	// Dir is where the records are written.
	Dir string `json:"dir"`
	// Upstreams are the upstream of each provider.
	Upstreams map[string]string `json:"upstreams"`
	// Agents say how to point each agent at the proxy.
	Agents []AgentSetup `json:"agents"`
	// Policy and Budget are the live eviction applied ("" when none).
	Policy string `json:"policy,omitempty"`
	Budget int    `json:"budget,omitempty"`
	Step   int    `json:"step,omitempty"`
	// Paused are the conversations (their session ids) whose requests go
	// as sent while the policy applies to the others.
	Paused []string `json:"paused"`
}

// AgentSetup is how to point one agent at the proxy: a line to copy.
type AgentSetup struct {
	Agent string `json:"agent"`
	Line  string `json:"line"`
}

// proxyRunner is the running proxy and the watcher that imports what it
// records.
type proxyRunner struct {
	srv  *proxy.Server
	ev   *evict.Evictor // nil when the proxy forwards as sent
	base string
	ups  map[proxy.Provider]*url.URL
	w    *tail.Watcher
	done chan struct{}
}

// Proxy returns the recording proxy's state.
func (l *Live) Proxy(ctx context.Context) (ProxyState, error) {
	l.app.called("Live.Proxy")
	var st storedProxy
	if _, err := l.app.local.get(proxySetting, &st); err != nil {
		return ProxyState{}, err
	}
	return l.proxyState(st), nil
}

// SetProxy starts or stops the recording proxy with settings s, and keeps
// them in this user's settings. Requests recorded while it runs are
// imported as they come, each conversation a session that grows with
// every request.
func (l *Live) SetProxy(ctx context.Context, s ProxySettings) (ProxyState, error) {
	l.app.called("Live.SetProxy", s)
	var st storedProxy
	if _, err := l.app.local.get(proxySetting, &st); err != nil {
		return ProxyState{}, err
	}
	if s.Addr != "" {
		if err := proxy.CheckAddr(s.Addr); err != nil {
			return ProxyState{}, err
		}
		st.Addr = s.Addr
	}
	switch {
	case len(s.Upstreams) == 1 && s.Upstreams[0] == "default":
		st.Upstreams = nil
	case len(s.Upstreams) > 0:
		if _, err := proxy.ParseUpstreams(s.Upstreams); err != nil {
			return ProxyState{}, err
		}
		st.Upstreams = s.Upstreams
	}
	switch s.Policy {
	case "":
	case "off":
		st.Policy, st.Budget, st.Step = "", 0, 0
	default:
		if _, err := newEvictor(s.Policy, s.Budget, s.Step); err != nil {
			return ProxyState{}, err
		}
		st.Policy, st.Budget, st.Step = s.Policy, s.Budget, s.Step
	}
	if st.Token == "" {
		st.Token = proxy.NewToken()
	}
	st.On = s.On
	l.stopProxy()
	if st.On {
		addr, err := l.startProxy(st)
		if err != nil {
			return ProxyState{}, err
		}
		st.Addr = addr // the port chosen, kept for the next launch
	}
	if err := l.app.local.put(proxySetting, st); err != nil {
		return ProxyState{}, err
	}
	return l.proxyState(st), nil
}

// SetLiveEviction turns the proxy's eviction off (on false) or on again
// for the conversation of session key, a session the proxy recorded: the
// kill switch of one agent's session. Its requests then go as sent, each
// record saying so; the others are evicted as before. The choice is kept
// with the proxy's settings.
func (l *Live) SetLiveEviction(ctx context.Context, key string, on bool) (ProxyState, error) {
	l.app.called("Live.SetLiveEviction", key, on)
	info, err := l.app.ws.Store.Session(ctx, key)
	if err != nil {
		return ProxyState{}, err
	}
	if info.Format != string(session.FormatProxy) {
		return ProxyState{}, fmt.Errorf("%s is not a conversation the proxy recorded (%s)", key, info.Format)
	}
	var st storedProxy
	if _, err := l.app.local.get(proxySetting, &st); err != nil {
		return ProxyState{}, err
	}
	st.Paused = slices.DeleteFunc(st.Paused, func(c string) bool { return c == info.ID })
	if !on {
		st.Paused = append(st.Paused, info.ID)
	}
	if err := l.app.local.put(proxySetting, st); err != nil {
		return ProxyState{}, err
	}
	l.mu.Lock()
	r := l.proxy
	l.mu.Unlock()
	if r != nil && r.ev != nil {
		r.ev.SetPaused(info.ID, !on)
	}
	return l.proxyState(st), nil
}

// newEvictor returns the live evictor of policy at budget with the
// hysteresis step.
func newEvictor(policy string, budget, step int) (*evict.Evictor, error) {
	ev, err := evict.New(policy, budget, "")
	if err != nil {
		return nil, err
	}
	if err := ev.SetStep(step); err != nil {
		return nil, err
	}
	return ev, nil
}

// resumeProxy starts the proxy when this user left it on.
func (l *Live) resumeProxy() {
	var st storedProxy
	if _, err := l.app.local.get(proxySetting, &st); err != nil || !st.On {
		return
	}
	if _, err := l.startProxy(st); err != nil {
		l.app.logf("proxy: %v", err)
	}
}

// startProxy runs the proxy with st and follows its record folder; it
// returns the address it listens on.
func (l *Live) startProxy(st storedProxy) (string, error) {
	ups, err := proxy.ParseUpstreams(st.Upstreams)
	if err != nil {
		return "", err
	}
	dir := l.proxyDir()
	sink, err := proxy.NewFileSink(dir)
	if err != nil {
		return "", err
	}
	opts := proxy.Options{Token: st.Token, Upstreams: ups, Sink: sink, Errors: func(err error) { l.app.logf("proxy: %v", err) }}
	var ev *evict.Evictor
	if st.Policy != "" {
		if ev, err = newEvictor(st.Policy, st.Budget, st.Step); err != nil {
			return "", err
		}
		for _, conv := range st.Paused {
			ev.SetPaused(conv, true)
		}
		opts.Sink, opts.Rewrite = proxy.Sinks{sink, ev}, ev.Rewrite
	}
	p, err := proxy.New(opts)
	if err != nil {
		return "", err
	}
	addr := st.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	srv, err := proxy.Listen(p, addr)
	if err != nil {
		return "", err
	}
	w, err := tail.New(tail.Options{Poll: 500 * time.Millisecond})
	if err == nil {
		err = w.Add(dir)
	}
	if err != nil {
		srv.Close()
		if w != nil {
			w.Close()
		}
		return "", err
	}
	r := &proxyRunner{srv: srv, ev: ev, base: "http://" + srv.Addr() + p.Prefix(), ups: ups, w: w, done: make(chan struct{})}
	l.mu.Lock()
	l.proxy = r
	l.mu.Unlock()
	go l.watch(w, r.done, "")
	l.app.logf("proxy: recording at %s into %s", srv.Addr(), dir)
	return srv.Addr(), nil
}

// stopProxy stops the proxy; it does nothing when it is not running.
func (l *Live) stopProxy() {
	l.mu.Lock()
	r := l.proxy
	l.proxy = nil
	l.mu.Unlock()
	if r != nil {
		r.srv.Close()
		r.w.Close()
		<-r.done
	}
}

func (l *Live) proxyDir() string { return filepath.Join(l.app.ws.Store.Dir(), proxyDirName) }

// proxyState describes the proxy as it runs, or as set when it does not.
func (l *Live) proxyState(st storedProxy) ProxyState {
	out := ProxyState{Dir: l.proxyDir(), Addr: st.Addr, Upstreams: map[string]string{}, Agents: []AgentSetup{}, Policy: st.Policy, Budget: st.Budget, Step: st.Step, Paused: append([]string{}, st.Paused...)}
	l.mu.Lock()
	r := l.proxy
	l.mu.Unlock()
	ups, _ := proxy.ParseUpstreams(st.Upstreams)
	if r != nil {
		out.On, out.BaseURL, out.Addr, ups = true, r.base, r.srv.Addr(), r.ups
	}
	for p, u := range ups {
		out.Upstreams[string(p)] = u.String()
	}
	if out.BaseURL != "" {
		out.Agents = AgentSetups(out.BaseURL)
	}
	return out
}

// AgentSetups are the lines that point each agent (and the common SDKs)
// at a proxy whose base URL is base (docs/proxy.md says the same).
func AgentSetups(base string) []AgentSetup {
	v1 := base + "/v1"
	out := []AgentSetup{
		{"Claude Code", "ANTHROPIC_BASE_URL=" + base},
		{"Codex", `model_provider = "ctxscope"` + "\n" + `[model_providers.ctxscope]` + "\n" + `name = "ctxscope"` + "\n" + `base_url = "` + v1 + `"` + "\n" + `wire_api = "responses"` + "\n" + `env_key = "OPENAI_API_KEY"`},
		{"Gemini CLI", "GOOGLE_GEMINI_BASE_URL=" + base},
		{"OpenCode", `"provider": {"openai": {"options": {"baseURL": "` + v1 + `"}}}`},
		{"Copilot CLI", "COPILOT_PROVIDER_BASE_URL=" + v1},
		{"OpenAI SDKs", "OPENAI_BASE_URL=" + v1},
		{"Anthropic SDKs", "ANTHROPIC_BASE_URL=" + base},
	}
	return out
}
