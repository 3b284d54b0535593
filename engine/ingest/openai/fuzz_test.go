package openai

import (
	"bytes"
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
	"ctxscope/engine/session"
)

func FuzzOpenaiImport(f *testing.F) {
	fuzzcheck.Seed(f, "openai-chat")
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Importer{}.ImportEach(bytes.NewReader(data), "fuzz.json", func(s *session.Session) error {
			fuzzcheck.Check(t, s, false)
			return nil
		})
		if err != nil && !bytes.HasPrefix(data, []byte("PK")) {
			t.Fatalf("only a broken container may fail: %v", err)
		}
	})
}
