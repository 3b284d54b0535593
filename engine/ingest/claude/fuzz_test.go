package claude

import (
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
)

func FuzzClaudeImport(f *testing.F) {
	fuzzcheck.OneSession(f, "claude-code", "fuzz.jsonl", Importer{}.Import)
}
