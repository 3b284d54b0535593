package openhands

import (
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
)

func FuzzOpenhandsImport(f *testing.F) {
	fuzzcheck.Documents(f, "openhands", Importer{}.ImportEach, false)
}
