package serve

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/store"
)

// TestOpenerPageKeepsTheCodeOffTheCommandLine checks what `serve --open`
// hands the browser opener: the path of a page only this account can
// read, which names neither the token nor a code, and whose code opens
// one page once.
func TestOpenerPageKeepsTheCodeOffTheCommandLine(t *testing.T) {
	s := start(t)
	path, remove, err := s.OpenerPage()
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	code := regexp.MustCompile(`#code=([0-9a-f]+)`).FindSubmatch(page)
	if code == nil {
		t.Fatalf("the page holds no one-time code: %s", page)
	}
	if strings.Contains(path, string(code[1])) || strings.Contains(path, s.Token()) || strings.Contains(string(page), s.Token()) {
		t.Errorf("the opener's argument %s or its page names a secret", path)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %v", p, fi.Mode().Perm(), err, want)
		}
	}
	redeem := func() int {
		req, _ := http.NewRequest("POST", base(s)+"/api/session", strings.NewReader(`{"code":"`+string(code[1])+`"}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if first, second := redeem(), redeem(); first != 200 || second != 401 {
		t.Errorf("redeeming the page's code twice: %d then %d, want 200 then 401", first, second)
	}
	remove()
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Errorf("the page is still there after remove: %v", err)
	}
}

// TestIngestBeyondTheCapIsAskedToRetry fills every ingest slot and checks
// that one more upload or export gets 429 with Retry-After, and that a
// slot freed is taken again.
func TestIngestBeyondTheCapIsAskedToRetry(t *testing.T) {
	a := newAdmission(2)
	release := make(chan struct{})
	entered := make(chan struct{}, 2)
	slow := a.limited(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
	})
	for range 2 {
		go slow(httptest.NewRecorder(), &http.Request{})
	}
	<-entered
	<-entered
	rec := httptest.NewRecorder()
	a.limited(func(http.ResponseWriter, *http.Request) { t.Error("a third request was let in") })(rec, &http.Request{})
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Errorf("a third request: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	close(release)
	deadline := time.Now().Add(5 * time.Second)
	for len(a) > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	ran := false
	a.limited(func(http.ResponseWriter, *http.Request) { ran = true })(httptest.NewRecorder(), &http.Request{})
	if !ran {
		t.Error("a request after the slots were freed was refused")
	}
}

// TestRevokingATokenEndsItsEventStream opens a member's event stream,
// revokes the member's token and checks that the stream ends.
func TestRevokingATokenEndsItsEventStream(t *testing.T) {
	dir := t.TempDir()
	srv := newServer(t, dir)
	srv.recheck = 50 * time.Millisecond
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tok, err := st.CreateUserToken(context.Background(), "ann", store.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	serveOn(t, srv, "127.0.0.1:0")
	req, _ := http.NewRequest("GET", base(srv)+"/api/events", nil)
	req.Header.Set(tokenHeader, tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	if line, err := r.ReadString('\n'); err != nil || !strings.Contains(line, "connected") {
		t.Fatalf("the stream did not open: %q %v", line, err)
	}
	if err := st.RevokeUserToken(context.Background(), "ann"); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() {
		for {
			if _, err := r.ReadString('\n'); err != nil {
				ended <- err
				return
			}
		}
	}()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the revoked member's stream is still open after 5 s")
	}
}
