package pi

import (
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
)

func FuzzPiImport(f *testing.F) { fuzzcheck.OneSession(f, "pi", "fuzz.jsonl", Importer{}.Import) }
