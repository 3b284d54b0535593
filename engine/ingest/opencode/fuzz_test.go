package opencode

import (
	"bytes"
	"errors"
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
	"ctxscope/engine/session"
)

// FuzzOpenCodeImport reads arbitrary bytes as a session file of a storage
// tree that is not there: every session passes fuzzcheck.Check, and only
// a database (read from its path, which does not exist here) or a message
// or part record may fail to import.
func FuzzOpenCodeImport(f *testing.F) {
	fuzzcheck.Seed(f, "opencode")
	for _, p := range []string{"session/proj_test/ses_s_stage0_small.json", "message/s_stage0_small/msg_0002.json", "part/m_assistant_small/001.json"} {
		if data, err := readSample(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Importer{}.ImportEach(bytes.NewReader(data), "fuzz.json", func(s *session.Session) error {
			fuzzcheck.Check(t, s, false)
			return nil
		})
		if err != nil && !errors.Is(err, ErrNotASession) && !bytes.HasPrefix(data, sqliteHeader) {
			t.Fatalf("only a database or a message or part record may fail: %v", err)
		}
	})
}
