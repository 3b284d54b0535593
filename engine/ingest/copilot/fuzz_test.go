package copilot

import (
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
)

func FuzzCopilotImport(f *testing.F) {
	fuzzcheck.OneSession(f, "copilot", "events.jsonl", Importer{}.Import)
}
