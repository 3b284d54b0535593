package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ctxscope/engine/cwl/vectors"
)

func compactJSON(t *testing.T, raw []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return b.String()
}

// TestCWLFilterVectors runs every public vector pass through the command
// the acceptance vectors use, and compares its whole output.
func TestCWLFilterVectors(t *testing.T) {
	f, err := vectors.Load("../../testdata/shared/cwl-vectors/public.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	passes := 0
	for _, v := range f.Vectors {
		path := filepath.Join(dir, v.ID+".json")
		if err := os.WriteFile(path, v.HistoryJSON(), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, p := range v.Passes {
			passes++
			code, out, stderr := run(t, "cwl", "filter", "--policy", "pi-cwl", "--budget", strconv.Itoa(p.Budget),
				"--context-window", strconv.Itoa(p.ContextWindow), path)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", v.ID, code, stderr)
			}
			want, _ := json.Marshal(map[string]any{"tokensBefore": p.TokensBefore, "tokensAfter": p.TokensAfter,
				"threshold": p.Threshold, "chunkStats": p.ChunkStats, "view": p.View})
			var got map[string]json.RawMessage
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%s: %v", v.ID, err)
			}
			var wantM map[string]json.RawMessage
			_ = json.Unmarshal(want, &wantM)
			if len(got) != 5 {
				t.Errorf("%s: output has %d keys, want 5", v.ID, len(got))
			}
			for k, w := range wantM {
				if a, b := compactJSON(t, got[k]), compactJSON(t, w); a != b {
					t.Errorf("%s budget %d: %s\n got %s\nwant %s", v.ID, p.Budget, k, a, b)
				}
			}
		}
	}
	if passes != 18 {
		t.Errorf("ran %d passes, want 18", passes)
	}
}

func TestCWLFilterErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`[{"role":"user","content":"x"},{"role":"nope"}]`), 0o644)
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"cwl", "filter", "--policy", "pi-cwl", bad}, 1, "bad.json:1"},
		{[]string{"cwl", "filter", "--policy", "lru", bad}, 2, "unknown policy"},
		{[]string{"cwl", "filter", "--budget", "1e", bad}, 2, "invalid budget"},
		{[]string{"cwl", "filter"}, 2, "exactly one"},
		{[]string{"cwl"}, 2, "subcommand"},
		{[]string{"replay", bad, "--budget", "1e"}, 2, "invalid budget"},
	}
	for _, tc := range tests {
		code, _, stderr := run(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.msg)
		}
	}
}
