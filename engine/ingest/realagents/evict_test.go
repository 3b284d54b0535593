package realagents

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/evict"
	"ctxscope/engine/modeltest"
	"ctxscope/engine/proxy"
)

// TestClaudeCodeUnderLiveEviction runs Claude Code on the scripted task
// through the proxy with CWL eviction at a τ under the run's peak (its
// system prompt and tool schemas alone are about 17,000 tokens, which no
// policy evicts).
func TestClaudeCodeUnderLiveEviction(t *testing.T) {
	agent := pinnedAgent(t, "claude-code")
	sb := newSandbox(t, project)
	underEviction(t, sb, codingTask(sb.work, false), 19000, nil, func(base string) {
		bin := filepath.Join(agent.dir, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude")
		sb.run(t, 3*time.Minute, []string{"ANTHROPIC_BASE_URL=" + base, "ANTHROPIC_API_KEY=test-key",
			"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1"},
			bin, "-p", prompt, "--dangerously-skip-permissions", "--model", "claude-sonnet-4-5", "--output-format", "stream-json", "--verbose")
	})
}

// underEviction runs an agent (run, given the base URL) on script
// through the proxy with the paper policy at τ budget, and checks that
// the agent completes (run fails the test otherwise), that every request
// the model server received pairs each call with its result, that some
// requests over τ went rewritten, and that a replay of the recording (the
// requests as the agent sent them) reproduces every forwarded body. Before
// the agent runs, before (when not nil) is given the proxy's record
// directory. It returns the requests the server received and the records.
func underEviction(t *testing.T, sb *sandbox, script modeltest.Script, budget int, before func(dir string), run func(base string)) ([]modeltest.Request, []*proxy.Record) {
	t.Helper()
	srv := modeltest.Start(script)
	defer srv.Close()
	ev, err := evict.New("paper", budget, "")
	if err != nil {
		t.Fatal(err)
	}
	ups, _ := proxy.ParseUpstreams([]string{srv.URL})
	dir := filepath.Join(t.TempDir(), "proxy")
	sink, err := proxy.NewFileSink(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := proxy.New(proxy.Options{Token: "realagents-evict-token", Upstreams: ups, Sink: proxy.Sinks{sink, ev}, Rewrite: ev.Rewrite})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(p)
	defer hs.Close()
	if before != nil {
		before(dir)
	}
	run(hs.URL + p.Prefix())
	sb.checkFixed(t)

	for k, r := range srv.Requests() {
		if bad := r.Unpaired(); r.Task == mainMarker && len(bad) > 0 {
			t.Errorf("request %d the server received: %v", k, bad)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	byConv := map[string][]*proxy.Record{}
	var all []*proxy.Record
	total := 0
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var r proxy.Record
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			byConv[r.Conversation] = append(byConv[r.Conversation], &r)
			all = append(all, &r)
			total++
		}
	}
	replay, _ := evict.New("paper", budget, "")
	rewritten := 0
	for _, conv := range byConv {
		for k, r := range conv {
			fwd, note := replay.Rewrite(r.API, r.Conversation, []byte(r.Request.Text))
			switch {
			case note != r.Rewrite:
				t.Errorf("request %d: the replay notes %q, the live proxy %q", k, note, r.Rewrite)
			case r.Forwarded == nil && r.Rewrite != "" && !strings.Contains(r.Rewrite, "unreachable:"):
				t.Errorf("request %d forwarded as sent: %s", k, r.Rewrite)
			case (fwd == nil) != (r.Forwarded == nil):
				t.Errorf("request %d: the replay rewrites %v, the live proxy %v (%s)", k, fwd != nil, r.Forwarded != nil, r.Rewrite)
			case fwd != nil && string(fwd) != r.Forwarded.Text:
				t.Errorf("request %d: the replay's rewrite differs from the forwarded body", k)
			}
			if r.Forwarded != nil {
				rewritten++
				if after, ok := tokensAfter(r.Rewrite); !ok || after > budget && !strings.Contains(r.Rewrite, "unreachable:") {
					t.Errorf("request %d forwarded over τ %d without saying why: %s", k, budget, r.Rewrite)
				}
			}
			replay.Record(r)
		}
	}
	if rewritten == 0 {
		t.Errorf("no request of %d was rewritten at τ %d", total, budget)
	}
	peak := 0
	for _, r := range all {
		if _, rest, ok := strings.Cut(r.Rewrite, ": "); ok {
			var before int
			if _, err := fmt.Sscanf(rest, "%d tokens before", &before); err == nil {
				peak = max(peak, before)
			}
		}
	}
	t.Logf("%d of %d requests rewritten at τ %d (the largest input before eviction: %d tokens); the agent completed", rewritten, total, budget, peak)
	return srv.Requests(), all
}

// tokensAfter reads the input's size after eviction from a rewrite note
// ("... %d tokens before, %d after").
func tokensAfter(note string) (int, bool) {
	_, rest, ok := strings.Cut(note, " tokens before, ")
	if !ok {
		return 0, false
	}
	var n int
	_, err := fmt.Sscanf(rest, "%d after", &n)
	return n, err == nil
}
