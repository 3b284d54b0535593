package pi

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"testing"

	"ctxscope/engine/ingest/jsonl"
)

const benchFile = "../../../testdata/shared/sessions/pi/pi-cwl__before-compaction.jsonl"

func benchData(b *testing.B) []byte {
	b.Helper()
	data, err := os.ReadFile(benchFile)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkImport measures pi import throughput on the largest shared pi
// session (2.4 MB, 1,003 entries).
func BenchmarkImport(b *testing.B) {
	data := benchData(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := Importer{}.Import(bytes.NewReader(data), "bench.jsonl")
		if err != nil || len(s.Diagnostics) != 0 {
			b.Fatalf("import: %v, %d diagnostics", err, len(s.Diagnostics))
		}
	}
}

// BenchmarkFloorLines is the floor for BenchmarkImport: splitting the
// same file into lines without decoding them.
func BenchmarkFloorLines(b *testing.B) {
	data := benchData(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r := jsonl.NewReader(bytes.NewReader(data), 0)
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			}
		}
	}
}

// BenchmarkBaselineGenericJSON decodes every line into map[string]any with
// encoding/json: what a naive importer costs.
func BenchmarkBaselineGenericJSON(b *testing.B) {
	data := benchData(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r := jsonl.NewReader(bytes.NewReader(data), 0)
		for {
			line, err := r.Next()
			if err == io.EOF {
				break
			}
			var v map[string]any
			if err := json.Unmarshal(line, &v); err != nil {
				b.Fatal(err)
			}
		}
	}
}
