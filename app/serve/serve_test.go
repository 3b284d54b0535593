package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"ctxscope/app"
)

// start serves a fresh app on a free loopback port for the test's life.
func start(t *testing.T) *Server {
	t.Helper()
	assets := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>ctxscope</title>")}}
	a, err := app.New(app.Options{Workspace: t.TempDir(), Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	srv, err := New(a, assets)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen("127.0.0.1:0"); err != nil {
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
	return srv
}

func base(s *Server) string { return "http://" + s.listener.Addr().String() }

func TestRequestsWithoutTheTokenGet401(t *testing.T) {
	s := start(t)
	for _, tc := range []struct {
		name, method, path string
		header             map[string]string
	}{
		{"page", "GET", "/", nil},
		{"asset", "GET", "/index.html", nil},
		{"call", "POST", "/api/call/Sessions/List", nil},
		{"events", "GET", "/api/events", nil},
		{"upload", "POST", "/api/upload?name=x.jsonl", nil},
		{"wrong token", "GET", "/?token=" + strings.Repeat("0", 48), nil},
		{"wrong header", "POST", "/api/call/Sessions/List", map[string]string{tokenHeader: "nope"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, base(s)+tc.path, strings.NewReader("[]"))
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

func TestTokenInURLSetsCookieForAssets(t *testing.T) {
	s := start(t)
	resp, err := http.Get(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("page with token: status %d", resp.StatusCode)
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == tokenCookie {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("want an HttpOnly SameSite=Strict token cookie, got %+v", cookie)
	}
	req, _ := http.NewRequest("GET", base(s)+"/index.html", nil)
	req.AddCookie(cookie)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Security-Policy") == "" {
		t.Fatalf("asset with cookie: status %d, CSP %q", resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
	}
}

func TestListenRefusesNonLoopback(t *testing.T) {
	a, err := app.New(app.Options{Workspace: t.TempDir(), Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	srv, err := New(a, fstest.MapFS{})
	if err != nil {
		t.Fatal(err)
	}
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
	body, _ := json.Marshal(args)
	if args == nil {
		body = []byte("[]")
	}
	req, _ := http.NewRequest("POST", base(s)+"/api/call/"+service+"/"+method, bytes.NewReader(body))
	req.Header.Set(tokenHeader, s.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

func TestCallsReachTheBoundServices(t *testing.T) {
	s := start(t)
	code, body := call(t, s, "Sessions", "OpenPath", "../../../shared/data/sessions/pi/pi-cwl__large-session.jsonl")
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
	code, body = call(t, s, "Sessions", "Timeline", info.Key, "estimate")
	var tl app.TimelineView
	if code != http.StatusOK || json.Unmarshal(body, &tl) != nil || len(tl.Points) != 453 {
		t.Fatalf("Timeline: %d, %d points", code, len(tl.Points))
	}
	if last := tl.Points[len(tl.Points)-1]; last.Tokens <= 0 || len(last.Breakdown) != len(tl.Categories) {
		t.Fatalf("last point %+v", last)
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
		{"wrong arity", "Sessions", "Timeline", []any{"x"}, http.StatusBadRequest},
		{"wrong type", "Sessions", "OpenPath", []any{42}, http.StatusBadRequest},
		{"method error", "Sessions", "Timeline", []any{"missing", "estimate"}, http.StatusUnprocessableEntity},
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
	data, err := os.ReadFile("../../../shared/data/sessions/pi/agent-sessions__pi-v3-small.jsonl")
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
