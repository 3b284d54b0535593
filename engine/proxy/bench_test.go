package proxy

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The benchmarks below time a streamed response through the proxy
// against the same response straight from the upstream, in the same run
// (the Baseline rows): the time to the first chunk of the body and each
// chunk's time in transit, as p50 and p95 over every exchange; the
// throughput of a 1 MB response; and the memory the proxy holds per open
// stream.

// streamer is an upstream that answers each request with n chunks of
// size bytes, flushing each.
func streamer(chunks, size int) *httptest.Server {
	chunk := []byte("data: " + strings.Repeat("x", max(size-8, 1)) + "\n\n")
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for range chunks {
			w.Write(chunk)
			w.(http.Flusher).Flush()
		}
	}))
}

// pacedChunk is the size of a chunk of the paced stream.
const pacedChunk = 64

// pacer is an upstream that streams 20 chunks a quarter millisecond
// apart, each holding the time it was sent, so that the client can tell
// how long each took to arrive: the latency a proxy adds to every chunk.
func pacer() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for range 20 {
			line := fmt.Sprintf("data: %d", time.Now().UnixNano())
			w.Write([]byte(line + strings.Repeat(" ", pacedChunk-len(line)-2) + "\n\n"))
			w.(http.Flusher).Flush()
			time.Sleep(250 * time.Microsecond)
		}
	}))
}

// runPaced runs b.N exchanges against url and reports, in microseconds,
// the time to the first chunk and each chunk's time in transit, as p50
// and p95.
func runPaced(b *testing.B, url string) {
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	var firsts, transit []time.Duration
	buf := make([]byte, pacedChunk)
	for b.Loop() {
		start := time.Now()
		res, err := client.Post(url, "application/json", strings.NewReader(`{"stream":true,"messages":[{"role":"user","content":"bench"}]}`))
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; ; i++ {
			if _, err := io.ReadFull(res.Body, buf); err != nil {
				break
			}
			now := time.Now()
			sent, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(string(buf), "data: ")), 10, 64)
			transit = append(transit, now.Sub(time.Unix(0, sent)))
			if i == 0 {
				firsts = append(firsts, now.Sub(start))
			}
		}
		res.Body.Close()
	}
	b.ReportMetric(percentile(firsts, 0.5), "first-p50-µs")
	b.ReportMetric(percentile(firsts, 0.95), "first-p95-µs")
	b.ReportMetric(percentile(transit, 0.5), "chunk-p50-µs")
	b.ReportMetric(percentile(transit, 0.95), "chunk-p95-µs")
}

func percentile(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return float64(ds[min(len(ds)-1, int(p*float64(len(ds))))].Microseconds())
}

// proxied returns the URL of a recording proxy in front of upstream,
// recording into memory.
func proxied(b *testing.B, upstream string) string {
	ups, _ := ParseUpstreams([]string{upstream})
	p, err := New(Options{Token: testToken, Upstreams: ups, Sink: discardSink{}})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(p)
	b.Cleanup(srv.Close)
	return srv.URL + p.Prefix() + "/v1/messages"
}

type discardSink struct{}

func (discardSink) Record(*Record) error { return nil }

func BenchmarkBaselineStreamDirect(b *testing.B) {
	up := pacer()
	defer up.Close()
	runPaced(b, up.URL+"/v1/messages")
}

func BenchmarkStreamThroughProxy(b *testing.B) {
	up := pacer()
	defer up.Close()
	runPaced(b, proxied(b, up.URL))
}

// runLarge reads b.N responses of 1 MB (64 chunks of 16 KiB) from url.
func runLarge(b *testing.B, url string) {
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	b.SetBytes(64 * 16 << 10)
	for b.Loop() {
		res, err := client.Post(url, "application/json", strings.NewReader(`{}`))
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
}

func BenchmarkBaselineLargeDirect(b *testing.B) {
	up := streamer(64, 16<<10)
	defer up.Close()
	runLarge(b, up.URL+"/v1/messages")
}

func BenchmarkLargeThroughProxy(b *testing.B) {
	up := streamer(64, 16<<10)
	defer up.Close()
	runLarge(b, proxied(b, up.URL))
}

// BenchmarkOpenStreams holds 50 streams open through the proxy at once,
// each having passed 64 KB, and reports the heap they take per stream
// (each keeps its copy of the body for the record).
func BenchmarkOpenStreams(b *testing.B) {
	const streams = 50
	release := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(bytes.Repeat([]byte("x"), 64<<10))
		w.(http.Flusher).Flush()
		<-release
	}))
	defer up.Close()
	url := proxied(b, up.URL)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxConnsPerHost: 0}}
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var open []*http.Response
		for range streams {
			res, err := client.Post(url, "application/json", strings.NewReader(`{}`))
			if err != nil {
				b.Fatal(err)
			}
			io.ReadFull(res.Body, make([]byte, 64<<10))
			open = append(open, res)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/streams/1024, "heap-KB/stream")
		release <- struct{}{}
		for range streams - 1 {
			release <- struct{}{}
		}
		for _, r := range open {
			io.Copy(io.Discard, r.Body)
			r.Body.Close()
		}
	}
}
