package normalized

import (
	"bytes"
	"path/filepath"
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
	"ctxscope/engine/ingest/pi"
	"ctxscope/engine/session"
)

// FuzzNormalizedImport is seeded with exports of the real pi sessions.
func FuzzNormalizedImport(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(fuzzcheck.Corpus, "pi", "*.jsonl"))
	for _, path := range files {
		s, err := pi.Importer{}.Import(openSeed(f, path), path)
		if err != nil {
			continue
		}
		var buf bytes.Buffer
		if Write(&buf, s) == nil {
			f.Add(buf.Bytes()[:min(buf.Len(), 16<<10)])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Importer{}.ImportEach(bytes.NewReader(data), "fuzz.jsonl", func(s *session.Session) error {
			fuzzcheck.Check(t, s, false)
			return nil
		})
		if err != nil {
			t.Fatalf("a byte slice cannot fail to read: %v", err)
		}
	})
}
