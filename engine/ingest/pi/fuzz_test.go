package pi

import (
	"bytes"
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
)

func FuzzPiImport(f *testing.F) {
	fuzzcheck.Seed(f, "pi")
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Importer{}.Import(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			t.Fatalf("a byte slice cannot fail to read: %v", err)
		}
		fuzzcheck.Check(t, s, false)
	})
}
