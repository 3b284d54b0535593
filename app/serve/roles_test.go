package serve

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"ctxscope/app"
	"ctxscope/engine/store"
	"ctxscope/engine/store/pgtest"
)

// teamClient calls a team server over TLS as the holder of a token.
type teamClient struct {
	t      *testing.T
	origin string
	client *http.Client
}

func (c teamClient) call(token, service, method string, args ...any) (int, string) {
	c.t.Helper()
	if args == nil {
		args = []any{}
	}
	body, _ := json.Marshal(args)
	req, _ := http.NewRequest("POST", c.origin+"/api/call/"+service+"/"+method, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(tokenHeader, token)
	resp, err := c.client.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

// startTeam serves a fresh app over TLS beyond loopback, its workspace in
// the PostgreSQL database at dbURL, and returns a client for it.
func startTeam(t *testing.T, dbURL string) (*Server, teamClient) {
	t.Helper()
	assets := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>ctxscope</title>")}}
	a, err := app.New(app.Options{Workspace: t.TempDir(), Store: dbURL, Log: io.Discard, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	srv, err := New(a, assets)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile, pool := selfSigned(t)
	if err := srv.UseTLS(certFile, keyFile); err != nil {
		t.Fatal(err)
	}
	serveOn(t, srv, "0.0.0.0:0")
	_, port, _ := net.SplitHostPort(srv.listener.Addr().String())
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: teamHost},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
		},
	}}
	return srv, teamClient{t: t, origin: "https://" + net.JoinHostPort(teamHost, port), client: client}
}

// TestAMemberCannotActAsTheOperator replays, over real TLS on a workspace
// in a real PostgreSQL, the attacks a member's token once made: pointing
// the server's LLM endpoint at a listener of theirs and building memory
// with it (which sent the operator's key and the conversation there),
// importing a directory of the server's disk, turning on discovery of
// the operator's agent folders, probing a path with Memory.Import, and
// deleting another member's session, memory and queued question. Each is
// refused with 403 and changes nothing; the operator's token does what
// only it may.
func TestAMemberCannotActAsTheOperator(t *testing.T) {
	pg, err := pgtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Stop() })
	dbURL, err := pg.Database(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenLocation(context.Background(), t.TempDir(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mallory, err := st.CreateUserToken(ctx, "mallory", store.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	ops, err := st.CreateUserToken(ctx, "ops", store.RoleOperator)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()

	var stolen atomic.Int64 // requests that reached the attacker's listener
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stolen.Add(1)
		http.Error(w, "no", http.StatusTeapot)
	}))
	defer attacker.Close()
	t.Setenv("CTXSCOPE_LLM_KEY", "sk-operator-secret")

	srv, c := startTeam(t, dbURL)
	_, list := c.call(ops, "Sessions", "List")
	var sessions []app.SessionInfo
	if err := json.Unmarshal([]byte(list), &sessions); err != nil || len(sessions) == 0 {
		t.Fatalf("the operator lists no session: %s", list)
	}
	demo := sessions[0].Key
	secretDir := t.TempDir()
	os.WriteFile(filepath.Join(secretDir, "notes.jsonl"), []byte(`{"type":"session","id":"x"}`+"\n"), 0o600)

	for _, tc := range []struct {
		name, service, method string
		args                  []any
	}{
		{"point the LLM endpoint at the attacker", "Memory", "SetLLMSettings", []any{attacker.URL, "gpt"}},
		{"build with the LLM extractor", "Memory", "Build", []any{map[string]any{"source": "session", "session": demo, "extractor": "llm"}}},
		{"build from a file on the server", "Memory", "Build", []any{map[string]any{"source": "locomo", "path": "/etc/passwd", "extractor": "offline"}}},
		{"import a directory of the server", "Sessions", "Import", []any{[]string{secretDir}}},
		{"open a path of the server", "Sessions", "OpenPath", []any{filepath.Join(secretDir, "notes.jsonl")}},
		{"discover the operator's agent folders", "Live", "SetDiscovery", []any{true}},
		{"probe a path with Memory.Import", "Memory", "Import", []any{map[string]any{"graph": "/etc/passwd"}}},
		{"delete another's session", "Sessions", "Delete", []any{demo}},
		{"delete a memory", "Memory", "Delete", []any{"anything"}},
		{"remove a queued question", "Annotations", "Remove", []any{"set", "q1"}},
		{"take another annotator's name", "Annotations", "SetAnnotator", []any{"ops"}},
	} {
		status, body := c.call(mallory, tc.service, tc.method, tc.args...)
		if status != http.StatusForbidden {
			t.Errorf("%s: %d %s, want 403", tc.name, status, body)
		}
	}
	if n := stolen.Load(); n != 0 {
		t.Errorf("the attacker's listener received %d requests", n)
	}
	if status, body := c.call(ops, "Memory", "LLMSettings"); status != 200 || strings.Contains(body, attacker.URL) {
		t.Errorf("the LLM settings after the attack: %d %s", status, body)
	}
	if _, body := c.call(ops, "Sessions", "List"); !strings.Contains(body, demo) {
		t.Error("the demo session is gone")
	}
	// What a member may do, they do, under their own name.
	if status, body := c.call(mallory, "Annotations", "Annotator"); status != 200 || body != `"mallory"` {
		t.Errorf("mallory's annotator: %d %s", status, body)
	}
	if status, body := c.call(mallory, "Debugger", "Replay", demo, map[string]any{"thread": 0, "policy": "paper", "budget": 4000}); status != 200 {
		t.Errorf("mallory's replay: %d %.200s", status, body)
	}
	if status, body := c.call(mallory, "UI", "Environment"); status != 200 || !strings.Contains(body, `"role":"member"`) {
		t.Errorf("mallory's environment: %d %s", status, body)
	}
	// The operator may do what the member may not.
	if status, body := c.call(ops, "Memory", "SetLLMSettings", "http://127.0.0.1:9/v1", "m"); status != 200 {
		t.Errorf("the operator's SetLLMSettings: %d %s", status, body)
	}
	if status, body := c.call(srv.Token(), "Sessions", "Delete", demo); status != 200 {
		t.Errorf("the launch token's Delete: %d %s", status, body)
	}

	// With the database down, a client with a token-shaped string learns
	// nothing of it: not its user, name or socket.
	pg.Stop()
	status, body := c.call("ctxs_"+strings.Repeat("A", 43), "Sessions", "List")
	if status != http.StatusServiceUnavailable || body != "service unavailable" {
		t.Errorf("with PostgreSQL down: %d %q, want 503 saying nothing more", status, body)
	}
}
