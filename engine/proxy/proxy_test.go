package proxy

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const testToken = "0123456789abcdef0123"

// memSink keeps records in memory.
type memSink struct {
	mu   sync.Mutex
	recs []*Record
}

func (m *memSink) Record(r *Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recs = append(m.recs, r)
	return nil
}

// wait returns the records once there are n: the proxy records an
// exchange after the agent may already have read its response.
func (m *memSink) wait(t *testing.T, n int) []*Record {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		recs := m.all()
		if len(recs) >= n || time.Now().After(deadline) {
			return recs
		}
		time.Sleep(time.Millisecond)
	}
}

func (m *memSink) all() []*Record {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*Record(nil), m.recs...)
}

// start runs a proxy in front of upstream and returns its base URL (the
// address and the secret prefix).
func start(t *testing.T, upstream string, sink Sink, maxBody int64) string {
	t.Helper()
	ups, err := ParseUpstreams([]string{upstream})
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(Options{Token: testToken, Upstreams: ups, Sink: sink, MaxBody: maxBody})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return srv.URL + p.Prefix()
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestStreamsChunkByChunkAndChangesNoByte sends a request through the
// proxy to an upstream that streams its answer in chunks, each only after
// the agent has read the one before through the proxy: the proxy holds
// nothing back. Both bodies arrive with the checksums they left with, and
// the record keeps them whole.
func TestStreamsChunkByChunkAndChangesNoByte(t *testing.T) {
	reqBody := []byte(`{"model":"m","stream":true,"messages":[{"role":"user","content":"héllo"}]}`)
	chunks := []string{"event: message_start\ndata: {\"type\":\"message_start\"}\n\n", "event: content_block_delta\ndata: {\"d\":\"a\"}\n\n", "event: message_stop\ndata: {}\n\n"}
	read := make(chan int)
	stop := make(chan struct{}) // the test ended early: the upstream stops waiting
	var got []byte
	var gotHeader http.Header
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = io.ReadAll(r.Body)
		gotHeader = r.Header.Clone()
		w.Header().Set("Content-Type", "text/event-stream")
		for i, c := range chunks {
			io.WriteString(w, c)
			w.(http.Flusher).Flush()
			if i < len(chunks)-1 {
				select {
				case <-read: // the agent read this chunk through the proxy
				case <-stop:
					return
				}
			}
		}
	}))
	defer up.Close()
	defer close(stop)
	sink := &memSink{}
	base := start(t, up.URL, sink, 0)

	req, _ := http.NewRequest("POST", base+"/v1/messages", bytes.NewReader(reqBody))
	req.Header.Set("x-api-key", "sk-secret-header")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Claude-Code-Session-Id", "s-1")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var streamed []byte
	for i, c := range chunks {
		buf := make([]byte, len(c))
		if _, err := io.ReadFull(res.Body, buf); err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
		streamed = append(streamed, buf...)
		if i < len(chunks)-1 {
			read <- i
		}
	}
	rest, _ := io.ReadAll(res.Body)
	res.Body.Close()
	streamed = append(streamed, rest...)

	if sum(got) != sum(reqBody) || gotHeader.Get("x-api-key") != "sk-secret-header" {
		t.Errorf("the upstream received %q with key %q", got, gotHeader.Get("x-api-key"))
	}
	if want := strings.Join(chunks, ""); string(streamed) != want {
		t.Errorf("the agent received %q, want %q", streamed, want)
	}
	recs := sink.wait(t, 1)
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	r := recs[0]
	if r.API != APIAnthropic || r.Status != 200 || r.Path != "/v1/messages" || r.Request.SHA256 != sum(reqBody) || r.Request.Text != string(reqBody) ||
		r.Response.Text != strings.Join(chunks, "") || r.Response.SHA256 != sum(streamed) || r.Response.ContentType != "text/event-stream" || r.Session["x-claude-code-session-id"] != "s-1" {
		t.Errorf("record %+v", r)
	}
}

// TestFaultsPassThroughAndAreRecorded checks what the agent gets, and what
// is recorded, when the upstream errs, is down, compresses, or the body is
// not JSON or larger than a record keeps.
func TestFaultsPassThroughAndAreRecorded(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"id":"r1"}`))
	zw.Close()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case strings.Contains(string(body), "overloaded"):
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(529)
			io.WriteString(w, `{"type":"error","error":{"type":"overloaded_error"}}`)
		case r.Header.Get("Accept-Encoding") == "gzip":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gz.Bytes())
		default:
			w.Write(body) // an echo
		}
	}))
	defer up.Close()
	sink := &memSink{}
	base := start(t, up.URL, sink, 64)
	do := func(path, body string, header ...string) (int, []byte) {
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		tr := &http.Transport{DisableCompression: true}
		res, err := (&http.Client{Transport: tr}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, b
	}
	long := `{"messages":[{"role":"user","content":"` + strings.Repeat("x", 500) + `"}]}`
	for _, tc := range []struct {
		name, path, body string
		header           []string
		status           int
		check            func(t *testing.T, got []byte, r *Record)
	}{
		{"an upstream error", "/v1/messages", `{"messages":[{"role":"user","content":"overloaded"}]}`, nil, 529, func(t *testing.T, got []byte, r *Record) {
			if string(got) != `{"type":"error","error":{"type":"overloaded_error"}}` || r.Status != 529 || !r.Failed() || r.Response.Text != string(got) {
				t.Errorf("got %q, record status %d body %q", got, r.Status, r.Response.Text)
			}
		}},
		{"malformed JSON", "/v1/chat/completions", `{"messages":[`, nil, 200, func(t *testing.T, got []byte, r *Record) {
			if string(got) != `{"messages":[` || r.Request.Text != `{"messages":[` || r.Conversation != "unparsed" {
				t.Errorf("got %q, record %+v", got, r.Request)
			}
		}},
		{"a body larger than a record keeps", "/v1/responses", long, nil, 200, func(t *testing.T, got []byte, r *Record) {
			if string(got) != long || !r.Request.Truncated || r.Request.Bytes != int64(len(long)) || r.Request.SHA256 != sum([]byte(long)) || len(r.Request.Text) != 64 {
				t.Errorf("got %d bytes, record %+v", len(got), r.Request)
			}
		}},
		{"a compressed response", "/v1beta/models/g:generateContent", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`, []string{"Accept-Encoding", "gzip"}, 200, func(t *testing.T, got []byte, r *Record) {
			if !bytes.Equal(got, gz.Bytes()) || r.Response.Encoding != "gzip" || r.Response.SHA256 != sum(gz.Bytes()) || r.Response.Text != `{"id":"r1"}` {
				t.Errorf("got %q, record %+v", got, r.Response)
			}
		}},
	} {
		before := len(sink.all())
		status, got := do(tc.path, tc.body, tc.header...)
		recs := sink.wait(t, before+1)
		if status != tc.status || len(recs) != before+1 {
			t.Errorf("%s: status %d, %d new records", tc.name, status, len(recs)-before)
			continue
		}
		tc.check(t, got, recs[len(recs)-1])
	}

	// An upstream that breaks off mid-stream: the agent gets what came,
	// and the exchange is recorded with the error.
	cut := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"partial\":true}\n\n")
		w.(http.Flusher).Flush()
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	}))
	defer cut.Close()
	broken := start(t, cut.URL, sink, 0)
	if res, err := http.Post(broken+"/v1/messages", "application/json", strings.NewReader(`{"messages":[]}`)); err == nil {
		io.ReadAll(res.Body)
		res.Body.Close()
	}
	recs := sink.wait(t, 5)
	if r := recs[len(recs)-1]; len(recs) != 5 || r.Error == "" || !r.Failed() || !strings.Contains(r.Response.Text, "partial") {
		t.Errorf("cut off: %d records, the last %+v", len(recs), r)
	}

	// An upstream that is down: the agent gets a 502, and the record says
	// why.
	down := start(t, "http://127.0.0.1:1", sink, 0)
	res, err := http.Post(down+"/v1/messages", "application/json", strings.NewReader(`{"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	recs = sink.wait(t, 6)
	if r := recs[len(recs)-1]; res.StatusCode != http.StatusBadGateway || r.Status != 0 || r.Error == "" || !r.Failed() {
		t.Errorf("down: status %d, record %+v", res.StatusCode, r)
	}
}

// TestOnlyTheAgentDrivesTheProxy checks the refusals: a request outside
// the secret prefix, from a web page (Origin) or naming another host is
// not forwarded.
func TestOnlyTheAgentDrivesTheProxy(t *testing.T) {
	hits := 0
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ }))
	defer up.Close()
	base := start(t, up.URL, &memSink{}, 0)
	u, _ := url.Parse(base)
	for _, tc := range []struct {
		name   string
		req    func() *http.Request
		status int
	}{
		{"no prefix", func() *http.Request { r, _ := http.NewRequest("POST", "http://"+u.Host+"/v1/messages", nil); return r }, 404},
		{"a wrong token", func() *http.Request {
			r, _ := http.NewRequest("POST", "http://"+u.Host+"/p/"+strings.Repeat("0", len(testToken))+"/v1/messages", nil)
			return r
		}, 404},
		{"a web page", func() *http.Request {
			r, _ := http.NewRequest("POST", base+"/v1/messages", nil)
			r.Header.Set("Origin", "https://example.com")
			return r
		}, 403},
		{"another host (DNS rebinding)", func() *http.Request {
			r, _ := http.NewRequest("POST", base+"/v1/messages", nil)
			r.Host = "evil.example:" + u.Port()
			return r
		}, 421},
	} {
		res, err := http.DefaultClient.Do(tc.req())
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, res.StatusCode, tc.status)
		}
	}
	if hits != 0 {
		t.Errorf("%d refused requests reached the upstream", hits)
	}
}

// TestRecordsKeepNoSecret sends keys in every place agents put them and
// checks that the record files hold none of them, and that a retried
// request is marked.
func TestRecordsKeepNoSecret(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"ok":true}`) }))
	defer up.Close()
	dir := filepath.Join(t.TempDir(), "proxy")
	sink, err := NewFileSink(dir)
	if err != nil {
		t.Fatal(err)
	}
	base := start(t, up.URL, sink, 0)
	body := `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`
	for range 2 {
		req, _ := http.NewRequest("POST", base+"/v1beta/models/g:streamGenerateContent?alt=sse&key=AIza-secret-query", strings.NewReader(body))
		req.Header.Set("x-goog-api-key", "AIza-secret-header")
		req.Header.Set("Authorization", "Bearer sk-secret-bearer")
		req.Header.Set("Cookie", "session=secret-cookie")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	var files []string
	var data []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		files, _ = filepath.Glob(filepath.Join(dir, "*.jsonl"))
		if len(files) == 1 {
			if data, _ = os.ReadFile(files[0]); bytes.Count(data, []byte("\n")) == 2 {
				break
			}
		}
	}
	if len(files) != 1 {
		t.Fatalf("record files %v, want one conversation", files)
	}
	for _, secret := range []string{"secret-query", "secret-header", "secret-bearer", "secret-cookie"} {
		if strings.Contains(string(data), secret) {
			t.Errorf("the record holds %s", secret)
		}
	}
	if info, _ := os.Stat(files[0]); info.Mode().Perm() != 0o600 {
		t.Errorf("record file mode %v", info.Mode().Perm())
	}
	if !strings.Contains(string(data), `"retryOf":1`) {
		t.Errorf("the second, identical request is not marked a retry:\n%s", data)
	}
}

func TestConversationKey(t *testing.T) {
	first := `{"messages":[{"role":"system","content":"s"},{"role":"user","content":"fix it"}]}`
	later := `{"messages":[{"role":"system","content":"s"},{"role":"user","content":"fix it"},{"role":"assistant","content":"ok"},{"role":"user","content":"more"}]}`
	other := `{"messages":[{"role":"user","content":"name this chat"}]}`
	k1, k2, k3 := ConversationKey(APIChat, []byte(first)), ConversationKey(APIChat, []byte(later)), ConversationKey(APIChat, []byte(other))
	if k1 != k2 || k1 == k3 || !strings.HasPrefix(k1, "chat-") {
		t.Errorf("keys %s %s %s", k1, k2, k3)
	}
	for _, tc := range []struct {
		api  API
		body string
	}{
		{APIAnthropic, `{"system":"s","messages":[{"role":"user","content":[{"type":"text","text":"a"}]}]}`},
		{APIResponses, `{"input":"a"}`},
		{APIResponses, `{"input":[{"type":"message","role":"developer","content":"d"},{"type":"message","role":"user","content":[{"type":"input_text","text":"a"}]}]}`},
		{APIGemini, `{"contents":[{"role":"user","parts":[{"text":"a"}]}]}`},
	} {
		if k := ConversationKey(tc.api, []byte(tc.body)); k == "unparsed" {
			t.Errorf("%s %s: unparsed", tc.api, tc.body)
		}
	}
}

// TestAnAgentThatStopsReadingIsRecorded checks an agent that closes its
// connection once it has what it needs, before the upstream's response
// ends (the OpenAI SDK does after the stream's last event): the exchange
// is recorded with what had come, marked, and not as a failure.
func TestAnAgentThatStopsReadingIsRecorded(t *testing.T) {
	gone := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-gone:
		}
		io.WriteString(w, ": trailing keep-alive\n\n")
	}))
	defer up.Close()
	defer close(gone)
	sink := &memSink{}
	base := start(t, up.URL, sink, 0)
	res, err := http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(`{"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	io.ReadFull(res.Body, buf)
	res.Body.Close() // before the end
	recs := sink.wait(t, 1)
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	if r := recs[0]; !r.ClientClosed || r.Error != "" || r.Failed() || !strings.Contains(r.Response.Text, "[DONE]") {
		t.Errorf("record %+v", r)
	}
}
