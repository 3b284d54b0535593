package minisweagent

import (
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
)

func FuzzMiniSWEAgentImport(f *testing.F) {
	fuzzcheck.OneSession(f, "mini-swe-agent", "fuzz.traj.json", Importer{}.Import)
}
