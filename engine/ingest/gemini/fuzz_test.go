package gemini

import (
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
)

func FuzzGeminiImport(f *testing.F) {
	fuzzcheck.OneSession(f, "gemini", "session.json", Importer{}.Import)
}
