package codex

import (
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
)

func FuzzCodexImport(f *testing.F) { fuzzcheck.OneSession(f, "codex", "fuzz.jsonl", Importer{}.Import) }
