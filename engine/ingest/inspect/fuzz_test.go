package inspect

import (
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
)

func FuzzInspectImport(f *testing.F) {
	fuzzcheck.Documents(f, "inspect-ai", Importer{}.ImportEach, true)
}
