package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"ctxscope/app"
	"ctxscope/engine/debug"
)

// start serves a fresh app on a free loopback port for the test's life.
func start(t *testing.T) *Server { return startIn(t, t.TempDir()) }

// startIn is start on the workspace in dir.
func startIn(t *testing.T, dir string) *Server {
	t.Helper()
	srv := newServer(t, dir)
	serveOn(t, srv, "127.0.0.1:0")
	return srv
}

// newServer makes a server, not yet listening, for a fresh app on the
// workspace in dir; both close when the test ends.
func newServer(t testing.TB, dir string) *Server {
	t.Helper()
	assets := fstest.MapFS{
		"index.html":       {Data: []byte("<!doctype html><title>ctxscope</title>")},
		"assets/app-x1.js": {Data: []byte("console.log(1)")},
		"boot-errors.js":   {Data: []byte("// boot")},
	}
	a, err := app.New(app.Options{Workspace: dir, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	srv, err := New(a, assets)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// serveOn makes srv listen on addr and serve until the test ends.
func serveOn(t testing.TB, srv *Server, addr string) {
	t.Helper()
	if err := srv.Listen(addr); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
}

func base(s *Server) string { return "http://" + s.listener.Addr().String() }

func TestAPIRequestsWithoutTheTokenGet401(t *testing.T) {
	s := start(t)
	for _, tc := range []struct {
		name, method, path string
		header             map[string]string
	}{
		{"call", "POST", "/api/call/Sessions/List", nil},
		{"events", "GET", "/api/events", nil},
		{"upload", "POST", "/api/upload?name=x.jsonl", nil},
		{"token in the query", "POST", "/api/call/Sessions/List?token=" + s.Token(), nil},
		{"token as a cookie", "POST", "/api/call/Sessions/List", map[string]string{"Cookie": "ctxscope_token=" + s.Token()}},
		{"wrong header", "POST", "/api/call/Sessions/List", map[string]string{tokenHeader: "nope"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, base(s)+tc.path, strings.NewReader("[]"))
			req.Header.Set("Content-Type", "application/json")
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("status %d, want 401", resp.StatusCode)
			}
		})
	}
}

// TestNoCookieAndNoTokenInURLs checks that the server never sets a cookie
// (which every process on 127.0.0.1 would receive) and keeps the token out
// of the part of its URLs that a browser sends.
func TestNoCookieAndNoTokenInURLs(t *testing.T) {
	s := start(t)
	u, err := url.Parse(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(u.RequestURI(), s.Token()) || u.Fragment != "token="+s.Token() {
		t.Fatalf("printed URL %s: the token belongs in the fragment only", s.URL())
	}
	once, err := s.OneTimeURL()
	if err != nil || strings.Contains(once, s.Token()) {
		t.Fatalf("one-time URL %s carries the token (%v)", once, err)
	}
	for _, path := range []string{"/", "/index.html", "/?token=" + s.Token()} {
		resp, err := http.Get(base(s) + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if len(resp.Cookies()) != 0 || resp.Header.Get("Set-Cookie") != "" {
			t.Fatalf("%s set a cookie: %v", path, resp.Header.Values("Set-Cookie"))
		}
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Security-Policy") == "" {
			t.Fatalf("%s: status %d, CSP %q", path, resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
		}
	}
}

// TestCrossOriginRequestsAreRefused sends the requests a page on another
// port of 127.0.0.1 can make without a preflight, token included (as if it
// had stolen it): each must be refused before it reaches a service.
func TestCrossOriginRequestsAreRefused(t *testing.T) {
	s := start(t)
	foreign := "http://127.0.0.1:1"
	for _, tc := range []struct {
		name        string
		header      map[string]string
		contentType string
		want        int
	}{
		{"foreign origin", map[string]string{"Origin": foreign}, "application/json", http.StatusForbidden},
		{"same-site, other port", map[string]string{"Sec-Fetch-Site": "same-site"}, "application/json", http.StatusForbidden},
		{"cross-site", map[string]string{"Sec-Fetch-Site": "cross-site"}, "application/json", http.StatusForbidden},
		{"null origin", map[string]string{"Origin": "null"}, "application/json", http.StatusForbidden},
		{"text/plain body", nil, "text/plain", http.StatusUnsupportedMediaType},
		{"form post", nil, "application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
		{"multipart form", nil, "multipart/form-data; boundary=x", http.StatusUnsupportedMediaType},
		{"same origin", map[string]string{"Origin": base(s), "Sec-Fetch-Site": "same-origin"}, "application/json", http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := `["http://127.0.0.1:1/steal", "m"]`
			req, _ := http.NewRequest("POST", base(s)+"/api/call/Memory/SetLLMSettings", strings.NewReader(body))
			req.Header.Set("Content-Type", tc.contentType)
			req.Header.Set(tokenHeader, s.Token())
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.want)
			}
		})
	}
}

func TestOneTimeCodeOpensOnePage(t *testing.T) {
	s := start(t)
	once, err := s.OneTimeURL()
	if err != nil {
		t.Fatal(err)
	}
	code := once[strings.Index(once, "#code=")+len("#code="):]
	exchange := func(code string) (int, string) {
		req, _ := http.NewRequest("POST", base(s)+"/api/session", strings.NewReader(`{"code":"`+code+`"}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct{ Token, Error string }
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out.Token
	}
	if status, tok := exchange(code); status != http.StatusOK || tok != s.Token() {
		t.Fatalf("first use: %d, token %q", status, tok)
	}
	if status, tok := exchange(code); status != http.StatusUnauthorized || tok != "" {
		t.Fatalf("second use: %d, token %q", status, tok)
	}
	if status, _ := exchange("made-up"); status != http.StatusUnauthorized {
		t.Fatalf("unknown code: %d", status)
	}
}

// TestUploadIsNotABoundMethod checks that the upload entry point cannot be
// reached through the call endpoint, nor anything else the list omits.
func TestUploadIsNotABoundMethod(t *testing.T) {
	s := start(t)
	for _, m := range [][2]string{{"Sessions", "Upload"}, {"App", "Upload"}, {"App", "Close"}, {"Sessions", "openPath"}} {
		if code, body := call(t, s, m[0], m[1]); code != http.StatusNotFound {
			t.Errorf("%s.%s: status %d %s, want 404", m[0], m[1], code, body)
		}
	}
}

func TestListenRefusesNonLoopback(t *testing.T) {
	srv := newServer(t, t.TempDir())
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0"} {
		if err := srv.Listen(addr); err == nil {
			srv.listener.Close()
			t.Errorf("Listen(%q) succeeded; want loopback-only refusal", addr)
		}
	}
	if err := srv.Listen("127.0.0.1:0"); err != nil {
		t.Fatalf("Listen(127.0.0.1:0): %v", err)
	}
	srv.listener.Close()
}

func TestForeignHostHeaderIsRefused(t *testing.T) {
	s := start(t)
	req, _ := http.NewRequest("GET", s.URL(), nil)
	req.Host = "attacker.example:80"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("status %d, want 403", resp.StatusCode)
	}
}

// call posts a bound-method call with the token header.
func call(t *testing.T, s *Server, service, method string, args ...any) (int, []byte) {
	t.Helper()
	code, body, _ := callForHeader(t, s, service, method, args...)
	return code, body
}

// callForHeader is call that also returns the answer's header.
func callForHeader(t *testing.T, s *Server, service, method string, args ...any) (int, []byte, http.Header) {
	t.Helper()
	body, _ := json.Marshal(args)
	if args == nil {
		body = []byte("[]")
	}
	req, _ := http.NewRequest("POST", base(s)+"/api/call/"+service+"/"+method, bytes.NewReader(body))
	req.Header.Set(tokenHeader, s.Token())
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out, resp.Header
}

// TestCallsSayTheServersTime checks the Server-Timing header by which the
// browser benchmarks tell the server's share of a call: the call and the
// encoding of its answer, or of its error, and the CPU time they took
// (on unix, where the tests run).
func TestCallsSayTheServersTime(t *testing.T) {
	s := start(t)
	timing := regexp.MustCompile(`^call;dur=\d+\.\d\d, encode;dur=\d+\.\d\d, cpu;dur=\d+\.\d\d$`)
	for _, tc := range []struct {
		method string
		args   []any
		want   int
	}{
		{"OpenPath", []any{"../../testdata/shared/sessions/pi/pi-cwl__large-session.jsonl"}, http.StatusOK},
		{"Open", []any{"missing"}, http.StatusUnprocessableEntity},
	} {
		code, body, h := callForHeader(t, s, "Sessions", tc.method, tc.args...)
		if code != tc.want {
			t.Fatalf("%s: %d %s", tc.method, code, body)
		}
		if got := strings.Join(h.Values("Server-Timing"), ", "); !timing.MatchString(got) {
			t.Errorf("%s: Server-Timing %q", tc.method, got)
		}
	}
}

func TestCallsReachTheBoundServices(t *testing.T) {
	s := start(t)
	code, body := call(t, s, "Sessions", "OpenPath", "../../testdata/shared/sessions/pi/pi-cwl__large-session.jsonl")
	if code != http.StatusOK {
		t.Fatalf("OpenPath: %d %s", code, body)
	}
	var info app.SessionInfo
	if err := json.Unmarshal(body, &info); err != nil {
		t.Fatal(err)
	}
	if info.Requests != 453 || info.Format != "pi" {
		t.Fatalf("OpenPath: got %d requests of format %q, want 453 pi", info.Requests, info.Format)
	}
	code, body = call(t, s, "Debugger", "Replay", info.Key, debug.Params{Counter: "estimate", Policy: "paper", Budget: 20000})
	var tl debug.Timeline
	if code != http.StatusOK || json.Unmarshal(body, &tl) != nil || len(tl.Before) != 453 {
		t.Fatalf("Replay: %d, %d requests", code, len(tl.Before))
	}
	if last := len(tl.After) - 1; tl.Before[last] <= 0 || tl.After[last] > 20000 || len(tl.Evictions) == 0 {
		t.Fatalf("last request %d → %d tokens, %d evictions", tl.Before[last], tl.After[last], len(tl.Evictions))
	}
}

func TestCallErrors(t *testing.T) {
	s := start(t)
	for _, tc := range []struct {
		name            string
		service, method string
		args            []any
		want            int
	}{
		{"unknown method", "Sessions", "Nope", nil, http.StatusNotFound},
		{"unknown service", "Os", "Exit", nil, http.StatusNotFound},
		{"wrong arity", "Debugger", "Replay", []any{"x"}, http.StatusBadRequest},
		{"wrong type", "Sessions", "OpenPath", []any{42}, http.StatusBadRequest},
		{"method error", "Debugger", "Replay", []any{"missing", debug.Params{}}, http.StatusUnprocessableEntity},
		{"missing file", "Sessions", "OpenPath", []any{"/nonexistent/session.jsonl"}, http.StatusUnprocessableEntity},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := call(t, s, tc.service, tc.method, tc.args...)
			if code != tc.want {
				t.Fatalf("status %d (%s), want %d", code, body, tc.want)
			}
			var e struct{ Error string }
			if json.Unmarshal(body, &e) != nil || e.Error == "" {
				t.Fatalf("want an {error} body, got %s", body)
			}
		})
	}
}

func TestUploadImportsTheBody(t *testing.T) {
	s := start(t)
	data, err := os.ReadFile("../../testdata/shared/sessions/pi/agent-sessions__pi-v3-small.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", base(s)+"/api/upload?name=../../etc/small.jsonl", bytes.NewReader(data))
	req.Header.Set(tokenHeader, s.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var info app.SessionInfo
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&info) != nil {
		t.Fatalf("upload: status %d", resp.StatusCode)
	}
	if info.Requests != 2 || info.Compactions != 2 || !strings.HasSuffix(info.Source, "-small.jsonl") || strings.Contains(info.Source, "etc") {
		t.Fatalf("upload: %+v", info)
	}
}

func TestEventsAreStreamed(t *testing.T) {
	s := start(t)
	req, _ := http.NewRequest("GET", base(s)+"/api/events", nil)
	req.Header.Set(tokenHeader, s.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 64)
	if _, err := resp.Body.Read(buf); err != nil { // ": connected" means we are subscribed
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		b := make([]byte, 512)
		n, _ := resp.Body.Read(b)
		got <- string(b[:n])
	}()
	s.Emit("session:appended", map[string]int{"entries": 3})
	select {
	case msg := <-got:
		if !strings.Contains(msg, `"event":"session:appended"`) || !strings.Contains(msg, `"entries":3`) {
			t.Fatalf("event %q", msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5s")
	}
}

// TestRejectedUploadLeavesNothing uploads content that is no session: the
// server refuses it and keeps nothing of it.
func TestRejectedUploadLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	s := startIn(t, dir)
	body := bytes.Repeat([]byte("not a session, just bytes\n"), 1<<16)
	req, _ := http.NewRequest("POST", base(s)+"/api/upload?name=notes.txt", bytes.NewReader(body))
	req.Header.Set(tokenHeader, s.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422", resp.StatusCode)
	}
	uploads := filepath.Join(dir, "uploads")
	if left, _ := os.ReadDir(uploads); len(left) != 0 {
		t.Fatalf("the rejected upload left %v", left)
	}
}
