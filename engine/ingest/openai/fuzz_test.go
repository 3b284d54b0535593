package openai

import (
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
)

func FuzzOpenaiImport(f *testing.F) {
	fuzzcheck.Documents(f, "openai-chat", Importer{}.ImportEach, false)
}
