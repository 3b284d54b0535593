package sweagent

import (
	"bytes"
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
)

func FuzzSWEAgentImport(f *testing.F) {
	fuzzcheck.Seed(f, "swe-agent")
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Importer{}.Import(bytes.NewReader(data), "fuzz.traj")
		if err != nil {
			t.Fatalf("a byte slice cannot fail to read: %v", err)
		}
		fuzzcheck.Check(t, s, false)
	})
}
