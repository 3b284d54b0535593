package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/ingest/jsonl"
)

// benchSize is the size of the file the throughput benchmarks import.
var benchSize = envSize(200 << 20)

var (
	benchOnce sync.Once
	benchPath string
	benchErr  error
)

// bigClaudeFile builds, once per run, a Claude Code transcript of at least
// benchSize bytes by repeating the largest real session of the corpus with
// fresh uuids and message ids on each copy, so that the copies do not
// collapse into one as duplicates would.
func bigClaudeFile(b *testing.B, size int) string {
	src := readCorpus(b, "claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl")
	path := filepath.Join(b.TempDir(), fmt.Sprintf("big-%d.jsonl", size))
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	for n, copyNo := 0, 0; n < size; copyNo++ {
		tag := []byte(fmt.Sprintf("%08x", copyNo))
		// uuids end in 12 hex digits and message ids in 24 base-62
		// characters: overwriting their last 8 characters with the copy
		// number keeps them well formed and unique per copy.
		out := retag(src, tag)
		if _, err := f.Write(out); err != nil {
			b.Fatal(err)
		}
		n += len(out)
	}
	return path
}

// retag rewrites the last 8 characters of every uuid ("uuid":"…",
// "parentUuid":"…", "leafUuid":"…") and message id ("id":"msg_…") of a
// transcript.
func retag(src, tag []byte) []byte {
	out := append([]byte(nil), src...)
	for _, key := range [][]byte{[]byte(`uuid":"`), []byte(`Uuid":"`), []byte(`"id":"msg_`)} {
		for i := 0; ; {
			j := bytes.Index(out[i:], key)
			if j < 0 {
				break
			}
			start := i + j + len(key)
			end := start + bytes.IndexByte(out[start:], '"')
			if end-start >= 8 {
				copy(out[end-8:end], tag)
			}
			i = end
		}
	}
	return out
}

// peakRSS returns the process's peak resident set size. It never goes
// down, so each benchmark whose RSS matters must run in a process of its
// own (-bench with one name); see docs/bench/importers.md.
func peakRSS() int64 {
	var ru runtimeRusage
	return maxRSS(&ru)
}

// benchFile runs op b.N times on the big Claude Code file and reports its
// throughput, per CPU-second too, and with rss the peak RSS.
func benchFile(b *testing.B, rss bool, op func(path string)) {
	path := bigClaudeFile(b, benchSize)
	info, _ := os.Stat(path)
	b.SetBytes(info.Size())
	runtime.GC()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		op(path)
	}
	reportCPU(b, info.Size(), cpu0)
	if rss {
		b.ReportMetric(float64(peakRSS())/(1<<20), "peakRSS-MB")
	}
}

// eachLine calls fn with every line of the file at path.
func eachLine(b *testing.B, path string, fn func(line []byte)) {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	lr := jsonl.NewReader(f, 0)
	for {
		line, err := lr.Next()
		if err != nil {
			return
		}
		fn(line)
	}
}

// BenchmarkImportClaudeCode imports the whole file into memory with
// ingest.ReadFile: the session it returns is proportional to the file.
func BenchmarkImportClaudeCode(b *testing.B) {
	benchFile(b, true, func(path string) {
		s, err := ingest.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if len(s.Diagnostics) > 0 {
			b.Fatalf("diagnostics: %v", s.Diagnostics[0])
		}
	})
}

// envSize lets a profiling run shrink the benchmark file:
// CTXSCOPE_BENCH_MB=50 go test -bench ...
func envSize(def int) int {
	var mb int
	if _, err := fmt.Sscan(os.Getenv("CTXSCOPE_BENCH_MB"), &mb); err == nil && mb > 0 {
		return mb << 20
	}
	return def
}

// BenchmarkStreamClaudeCode decodes the same file with ingest.Stream, as a
// store that keeps entries elsewhere does: entries are not retained.
func BenchmarkStreamClaudeCode(b *testing.B) {
	benchFile(b, true, func(path string) {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		n := 0
		s, err := ingest.Stream(f, path, func(u jsonl.Update) error {
			n++
			return nil
		})
		if err != nil || len(s.Diagnostics) > 0 || n == 0 {
			b.Fatalf("err %v, %d updates, diagnostics %v", err, n, s.Diagnostics)
		}
	})
}

// BenchmarkBaselineReadLines reads the same file line by line and does
// nothing else: the ceiling any importer is measured against.
func BenchmarkBaselineReadLines(b *testing.B) {
	benchFile(b, false, func(path string) { eachLine(b, path, func([]byte) {}) })
}

// BenchmarkBaselineEncodingJSON decodes each line of the same file into a
// map with encoding/json: what the standard decoder alone costs, without
// any normalization.
func BenchmarkBaselineEncodingJSON(b *testing.B) {
	benchFile(b, false, func(path string) {
		eachLine(b, path, func(line []byte) {
			var v map[string]any
			if err := json.Unmarshal(line, &v); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// reportCPU adds the throughput per CPU-second of the benchmark loop.
func reportCPU(b *testing.B, size int64, cpu0 float64) {
	b.StopTimer()
	if used := cpuSeconds() - cpu0; used > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/1e6/used, "MB/cpu-s")
	}
}
