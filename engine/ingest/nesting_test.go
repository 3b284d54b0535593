package ingest_test

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

// deepLevels is how deeply the hostile values of the nesting tests nest:
// the collector's OTLP/JSON decoder overflowed Go's stack at 2.3 million.
const deepLevels = 1_000_000

// deep is a JSON value nested n arrays deep around a string.
func deep(n int) string { return strings.Repeat("[", n) + `"x"` + strings.Repeat("]", n) }

// deepObject is a JSON value nested n objects deep: {"a":{"a":…}}.
func deepObject(n int) string { return strings.Repeat(`{"a":`, n) + `1` + strings.Repeat("}", n) }

// nestingCases are, per format, a file that the format's importer reads
// with a value nested a million levels deep where the format keeps
// content: after a real sample's first line for the line formats, as a
// whole document for the others.
func nestingCases(t *testing.T) map[string][]byte {
	t.Helper()
	afterFirstLine := func(path, line string) []byte {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		first, rest, _ := bytes.Cut(data, []byte("\n"))
		return []byte(string(first) + "\n" + line + "\n" + string(rest))
	}
	d, o := deep(deepLevels), deepObject(deepLevels)
	otlpSpan := `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"spans":[{"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"0102030405060708","name":"chat m","attributes":[{"key":"gen_ai.input.messages","value":`
	return map[string][]byte{
		"claude":      afterFirstLine(lineSamples[0], `{"type":"user","uuid":"u1","message":{"role":"user","content":`+d+`}}`),
		"codex":       afterFirstLine(lineSamples[1], `{"timestamp":"2026-01-01T00:00:00Z","type":"response_item","payload":`+o+`}`),
		"copilot":     afterFirstLine(lineSamples[2], `{"type":"user.message","data":`+o+`}`),
		"gemini":      afterFirstLine(lineSamples[3], `{"type":"user","content":`+d+`}`),
		"openhands":   afterFirstLine(lineSamples[4], `{"kind":"MessageEvent","source":"user","llm_message":`+o+`}`),
		"pi":          []byte(`{"type":"session","version":3,"id":"s","timestamp":"2026-05-12T01:02:27.657Z","cwd":"/"}` + "\n" + `{"type":"message","id":"m1","parentId":null,"timestamp":"2026-05-12T01:02:28Z","message":{"role":"user","content":` + d + `}}` + "\n"),
		"otlp-traces": []byte(otlpSpan + strings.Repeat(`{"kvlistValue":{"values":[{"key":"k","value":`, deepLevels/4) + `{"stringValue":"x"}` + strings.Repeat(`}]}}`, deepLevels/4) + `}]}]}]}]}` + "\n"),
		"otlp-logs":   []byte(`{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":` + strings.Repeat(`{"arrayValue":{"values":[`, deepLevels/3) + `{"stringValue":"x"}` + strings.Repeat(`]}}`, deepLevels/3) + `}]}]}]}` + "\n"),
		"openai-chat": []byte(`{"messages":[{"role":"user","content":` + d + `}]}`),
		"swe-agent":   []byte(`{"environment":"swe_main","trajectory":[{"action":"ls","observation":"x"}],"history":[{"role":"user","content":` + d + `}]}`),
		"mini-swe":    []byte(`{"info":{"exit_status":"Submitted"},"messages":[{"role":"user","content":` + d + `}],"trajectory_format":"mini-swe-agent-1"}`),
		"inspect":     []byte(`{"version":2,"status":"success","eval":{"task":"t"},"samples":[{"id":1,"messages":[{"role":"user","content":` + d + `}]}]}`),
		"normalized":  []byte(`{"type":"session","schema":"ctxscope.normalized/1","id":"s","format":"pi","version":1}` + "\n" + `{"type":"thread","id":"main","kind":"main"}` + "\n" + `{"type":"entry","thread":"main","entry":{"id":"e","kind":"message","type":"user","message":{"role":"user","blocks":` + d + `}}}` + "\n"),
		"bare":        []byte(d),
	}
}

// TestDeepNestingIsRefusedPerFormat reads, for each format, a file with a
// value nested a million levels deep: the import ends with an error, or
// with the line skipped and named in an error diagnostic, and never
// recurses a level per bracket (which ended the process with a stack
// overflow before). Memory stays near the file's own size.
func TestDeepNestingIsRefusedPerFormat(t *testing.T) {
	for name, data := range nestingCases(t) {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			s, err := ingest.Read(bytes.NewReader(data), name+".json")
			runtime.ReadMemStats(&after)
			if err == nil && !hasError(s) {
				t.Errorf("read without an error or an error diagnostic")
			}
			if grown := after.TotalAlloc - before.TotalAlloc; grown > 64<<20+20*uint64(len(data)) {
				t.Errorf("reading %d bytes allocated %d MB", len(data), grown>>20)
			}
		})
	}
}

func hasError(s *session.Session) bool {
	for _, d := range s.Diagnostics {
		if d.Severity == session.SeverityError {
			return true
		}
	}
	return false
}

// BenchmarkDeepNesting times the refusal of each format's million-deep
// file; docs/BENCHMARKS.md holds the figures (under a second each is the
// target).
func BenchmarkDeepNesting(b *testing.B) {
	t := &testing.T{}
	for name, data := range nestingCases(t) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				ingest.Read(bytes.NewReader(data), name+".json")
			}
		})
	}
}
