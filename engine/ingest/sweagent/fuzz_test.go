package sweagent

import (
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
)

func FuzzSWEAgentImport(f *testing.F) {
	fuzzcheck.OneSession(f, "swe-agent", "fuzz.traj", Importer{}.Import)
}
