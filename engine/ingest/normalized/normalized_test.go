package normalized_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/ingest/normalized"
	"ctxscope/engine/session"
)

// TestRoundTrip exports every file of the shared corpus and reads the
// export back: the sessions must be the same.
func TestRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/shared/sessions/*/*")
	if len(files) == 0 {
		t.Fatal("the shared corpus is missing (testdata/shared/sessions)")
	}
	for _, path := range files {
		if filepath.Ext(path) == ".md" {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			ss, err := ingest.ReadFileAll(path)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := normalized.Write(&buf, ss...); err != nil {
				t.Fatal(err)
			}
			back, err := ingest.ReadAll(bytes.NewReader(buf.Bytes()), "export.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if len(back) != len(ss) {
				t.Fatalf("%d sessions back, want %d", len(back), len(ss))
			}
			for i := range ss {
				want, got := canonical(t, ss[i]), canonical(t, back[i])
				if !bytes.Equal(want, got) {
					t.Errorf("session %d differs after a round trip", i)
				}
			}
		})
	}
}

// canonical is a session's JSON, for comparison.
func canonical(t *testing.T, s *session.Session) []byte {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBadRecords(t *testing.T) {
	in := `{"type":"thread","id":"x"}
{"type":"session","schema":"ctxscope.normalized/1","id":"s","format":"pi"}
{"type":"thread","id":"main","kind":"main"}
{"type":"entry","thread":"nope","entry":{"id":"a"}}
{"type":"entry","thread":"main","entry":{"id":"b","kind":"message"}}
not json
`
	ss, err := normalized.Importer{}.Import(bytes.NewReader([]byte(in)), "n.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := []int{}
	for _, d := range ss.Diagnostics {
		lines = append(lines, d.Line)
	}
	if len(ss.Main().Entries) != 1 || len(lines) != 3 || lines[0] != 1 || lines[1] != 4 || lines[2] != 6 {
		t.Errorf("entries %d, diagnostics at lines %v; want 1 and 1, 4, 6", len(ss.Main().Entries), lines)
	}
}
