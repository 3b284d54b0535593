package realagents

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/modeltest"
	"ctxscope/engine/proxy"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
	"ctxscope/engine/wire"
)

// recording is ctxscope's recording proxy in front of the model server:
// the agents talk to the server through it.
type recording struct {
	base string // the base URL an agent is given
	dir  string // where the proxy writes its records
}

// startProxy starts a recording proxy whose upstream is the model server.
func startProxy(t *testing.T, srv *modeltest.Server) recording {
	t.Helper()
	ups, err := proxy.ParseUpstreams([]string{srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "proxy")
	if keep := os.Getenv("CTXSCOPE_KEEP_AGENT_RUNS"); keep != "" {
		dir = filepath.Join(os.TempDir(), "ctxscope-proxy-"+t.Name())
		os.RemoveAll(dir)
	}
	sink, err := proxy.NewFileSink(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := proxy.New(proxy.Options{Token: "realagents-test-token", Upstreams: ups, Sink: sink, Errors: func(err error) { t.Error(err) }})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(p)
	t.Cleanup(hs.Close)
	return recording{base: hs.URL + p.Prefix(), dir: dir}
}

// compareRecords checks the proxy's records against what the server
// received: every model call recorded once, each request body byte for
// byte (by SHA-256 and size); and ctxscope's reading of the records: the
// conversation of marker, its requests, calls, results and usage as the
// server saw them, and each request's whole input (system prompt, tool
// schemas and messages) in o200k tokens within tolerance of the body.
func compareRecords(t *testing.T, name string, rec recording, srv *modeltest.Server, marker string, count bodyCounter, tolerance float64) {
	t.Helper()
	var sent []string
	for _, r := range srv.Requests() {
		if _, call := proxy.Classify(r.Method, r.Path); call {
			sum := sha256.Sum256(r.Body)
			sent = append(sent, hex.EncodeToString(sum[:]))
		}
	}
	files, _ := filepath.Glob(filepath.Join(rec.dir, "*.jsonl"))
	sessions, failed, err := ingest.ReadPaths(files)
	if err != nil || len(failed) > 0 {
		t.Fatalf("%s: reading the proxy's records: %v %v", name, failed, err)
	}
	var recorded []string
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var r proxy.Record
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("%s: %s: %v", name, f, err)
			}
			sum := sha256.Sum256(r.Request.Raw()) // the bytes kept, not the hash the proxy took
			recorded = append(recorded, hex.EncodeToString(sum[:]))
		}
	}
	sort.Strings(sent)
	sort.Strings(recorded)
	if !equalStrings(sent, recorded) {
		t.Errorf("%s: the proxy recorded %d request bodies, the server received %d model calls; not the same bodies", name, len(recorded), len(sent))
	}
	var conv *session.Session
	for _, s := range sessions {
		if s.Format != session.FormatProxy {
			t.Errorf("%s: a record file read as %s", name, s.Format)
		}
		if q := session.BuildRequests(s.Main()); len(q) > 0 && firstUserHas(q[0], marker) && conv == nil {
			conv = s
		}
	}
	if conv == nil {
		t.Fatalf("%s: no recorded conversation of %s among %d", name, marker, len(sessions))
	}
	compareThread(t, name+" (proxy)", conv.Main(), srv.Requests(), marker)
	compareInputs(t, name+" (proxy)", conv.Main(), srv.Requests(), marker, count, "", tolerance)
	t.Logf("%s: %d model calls recorded byte for byte in %d conversations", name, len(recorded), len(sessions))
}

// firstUserHas reports whether a user message of q's input holds text
// (an agent may send context of its own before the prompt).
func firstUserHas(q *session.Request, text string) bool {
	for _, m := range q.Input() {
		if m.Role != session.RoleUser {
			continue
		}
		for _, b := range m.Blocks {
			if strings.Contains(b.Text, text) {
				return true
			}
		}
	}
	return false
}

// compareWire joins thread th of the log session s with its recorded
// conversation and checks, for every request, that the log's input and
// the wire's differ only by blocks that lacks accepts (what the agent's
// log is known not to hold) and extra accepts (what it holds in another
// form than it sent). It logs what differs, by section.
func compareWire(t *testing.T, name string, s *session.Session, th *session.Thread, rec recording, lacks, extra func(wire.Part) bool) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(rec.dir, "*.jsonl"))
	wires, _, err := ingest.ReadPaths(files)
	if err != nil {
		t.Fatal(err)
	}
	var cands []wire.Candidate
	for i, w := range wires {
		cands = append(cands, wire.CandidateOf(strconv.Itoa(i), w))
	}
	key, ok := wire.Match(s, th, cands)
	if !ok {
		t.Fatalf("%s: no recorded conversation matches the log's thread", name)
	}
	w, _ := strconv.Atoi(key)
	c, err := tokens.ByName("o200k")
	if err != nil {
		t.Fatal(err)
	}
	diffs := wire.Compare(th, wires[w].Main(), c)
	paired, lackTokens, extraTokens := 0, 0, 0
	kinds := map[string]int{}
	for _, d := range diffs {
		if d.WireRequest < 0 {
			t.Errorf("%s: log request %d: the wire holds no request with its response", name, d.LogRequest)
			continue
		}
		paired++
		for _, p := range d.Lacks {
			kinds["lacks "+partKind(p)]++
			if !lacks(p) {
				t.Errorf("%s: request %d: the log lacks %s %q (%d tokens), which it should hold", name, d.LogRequest, partKind(p), p.Preview, p.Tokens)
			}
		}
		for _, p := range d.Extra {
			kinds["extra "+partKind(p)]++
			if !extra(p) {
				t.Errorf("%s: request %d: the log holds %s %q (%d tokens), which was not sent", name, d.LogRequest, partKind(p), p.Preview, p.Tokens)
			}
		}
		lackTokens = max(lackTokens, d.LacksTokens)
		extraTokens = max(extraTokens, d.ExtraTokens)
	}
	t.Logf("%s: %d of %d requests joined to the wire; per request at most %d tokens sent that the log lacks, %d in the log not sent; blocks %v",
		name, paired, len(diffs), lackTokens, extraTokens, kinds)
}

// partKind names a differing block by its role and section or type.
func partKind(p wire.Part) string {
	if p.Section != "" {
		return string(p.Role) + " " + string(p.Section)
	}
	return string(p.Role) + " " + string(p.Type)
}

// What the logs are known to lack of each request, and to hold in
// another form than sent (docs/importers.md).
func noPart(wire.Part) bool { return false }

// schemas accepts tool schemas.
func schemas(p wire.Part) bool {
	return p.Role == session.RoleSystem && p.Section == session.SectionToolSchema
}

// systemText accepts text of the system message (a system prompt).
func systemText(p wire.Part) bool {
	return p.Role == session.RoleSystem && p.Type == session.BlockText && p.Section == session.SectionNone
}

// billingHeader accepts the one system block no Claude Code record holds,
// the x-anthropic-billing-header of about 20 tokens.
func billingHeader(p wire.Part) bool { return systemText(p) && p.Tokens <= 40 }

// promptOrSchemas accepts a system prompt and tool schemas.
func promptOrSchemas(p wire.Part) bool { return systemText(p) || schemas(p) }
