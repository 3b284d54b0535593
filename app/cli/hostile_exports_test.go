package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"

	"ctxscope/engine/ingest/otlp/otlptest"
)

// serveChild is `ctxscope serve` running as a process of its own.
type serveChild struct {
	cmd   *exec.Cmd
	base  string // http://127.0.0.1:PORT
	token string
}

// startServeChild starts serve on a fresh workspace and waits for the
// line that says where it listens.
func startServeChild(t testing.TB) *serveChild {
	t.Helper()
	cmd := exec.Command(os.Args[0], "--workspace", t.TempDir(), "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	m := regexp.MustCompile(`serving at (http://[^/]+)/#token=(\w+)`).FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("serve said %q (%v)", line, err)
	}
	return &serveChild{cmd: cmd, base: m[1], token: m[2]}
}

// post sends body to path with the token and returns the status.
func (c *serveChild) post(t testing.TB, path, contentType string, body []byte, gzipped bool) int {
	t.Helper()
	req, _ := http.NewRequest("POST", c.base+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-Ctxscope-Token", c.token)
	if gzipped {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// stop ends serve with SIGTERM and returns its peak RSS in bytes.
func (c *serveChild) stop(t testing.TB) int64 {
	t.Helper()
	c.cmd.Process.Signal(syscall.SIGTERM)
	c.cmd.Wait()
	if ru, ok := c.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	t.Fatal("no resource usage for serve")
	return 0
}

// gzipBomb is a gzip stream of size zeros: about a thousandth of size.
func gzipBomb(size int) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for n := 0; n < size; n += len(zeros) {
		zw.Write(zeros)
	}
	zw.Close()
	return b.Bytes()
}

// hostileExports sends serve what once took it to gigabytes or ended it:
// the 1.46 MB export whose 1 MiB resource was copied per span, sixteen
// gzip bombs at once (each refused alone), and an export nested a million
// levels deep; then checks that serve still answers, and returns its
// peak RSS.
func hostileExports(t testing.TB) int64 {
	c := startServeChild(t)
	amplifying := otlptest.AmplifyingExport(8000, 1)
	if status := c.post(t, "/v1/traces", "application/json", amplifying, false); status != http.StatusOK {
		t.Errorf("the amplifying export (%d bytes): %d, want 200", len(amplifying), status)
	}
	bomb := gzipBomb(96 << 20)
	var wg sync.WaitGroup
	statuses := make(chan int, 16)
	for range 16 {
		wg.Go(func() { statuses <- c.post(t, "/v1/traces", "application/json", bomb, true) })
	}
	wg.Wait()
	close(statuses)
	for s := range statuses {
		if s != http.StatusRequestEntityTooLarge && s != http.StatusTooManyRequests {
			t.Errorf("a gzip bomb: %d, want 413 or 429", s)
		}
	}
	deep := []byte(`{"resourceSpans":[{"resource":{"attributes":[{"key":"k","value":` +
		strings.Repeat(`{"arrayValue":{"values":[`, 1_000_000) + `]}}]}}]}`)
	if status := c.post(t, "/v1/traces", "application/json", deep, false); status != http.StatusBadRequest {
		t.Errorf("the deep export: %d, want 400", status)
	}
	if status := c.post(t, "/api/call/Sessions/List", "application/json", []byte("[]"), false); status != http.StatusOK {
		t.Errorf("serve after the hostile exports: %d", status)
	}
	return c.stop(t)
}

// peakBound is the peak RSS serve must stay under through hostileExports.
// The race detector's shadow memory comes on top.
func peakBound() int64 {
	if raceBuild {
		return 1500 << 20
	}
	return 500 << 20
}

// TestHostileExportsStayBounded checks serve's peak RSS through
// hostileExports: under 500 MB (it went past 8 GB, and to 2.3 GB for the
// bombs, before).
func TestHostileExportsStayBounded(t *testing.T) {
	peak := hostileExports(t)
	if peak <= 0 || peak >= peakBound() {
		t.Errorf("serve's peak RSS %d MB, want under %d MB", peak>>20, peakBound()>>20)
	}
	t.Logf("peak RSS %.0f MB", float64(peak)/(1<<20))
}

// BenchmarkHostileExports reports serve's peak RSS through hostileExports
// (peakRSS-MB; the bound is 500 MB).
func BenchmarkHostileExports(b *testing.B) {
	var peak int64
	for b.Loop() {
		peak = max(peak, hostileExports(b))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peakRSS-MB")
	if peak >= peakBound() {
		b.Fatalf("peak RSS %d MB", peak>>20)
	}
}
