package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGraphGolden(t *testing.T) {
	for _, tc := range []struct{ vector, format string }{{"V6", "dot"}, {"V10", "dot"}, {"V6", "svg"}} {
		file := vectorHistory(t, tc.vector)
		code, out, errs := run(t, "graph", file, "--format", tc.format)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.vector, code, errs)
		}
		golden(t, "graph_"+strings.ToLower(tc.vector)+"."+tc.format, []byte(out))
	}
}

func TestGraphErrors(t *testing.T) {
	file := vectorHistory(t, "V6")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"bad policy", []string{"graph", file, "--budget", "100", "--policy", "lru"}, 2, `unknown policy "lru"`},
		{"bad format", []string{"graph", file, "--format", "png"}, 2, `unknown format "png"`},
		{"bad episodes", []string{"graph", file, "--episodes", "guessed"}, 2, `unknown episodes "guessed"`},
		{"bad ranking", []string{"graph", file, "--ranking", "alpha"}, 2, `unknown ranking "alpha"`},
		{"no file", []string{"graph"}, 2, "need exactly one FILE"},
		{"missing file", []string{"graph", filepath.Join(t.TempDir(), "none.jsonl")}, 1, "no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(t, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, errs, tc.code, tc.want)
			}
		})
	}
}

func TestGraphWithoutEpisodesIsEmpty(t *testing.T) {
	file := shared + "sessions/pi/agent-sessions__pi-v3-small.jsonl"
	code, out, errs := run(t, "graph", file, "--format", "svg")
	if code != 0 || !strings.Contains(errs, "has no declared episodes") || !strings.Contains(out, "</svg>") {
		t.Fatalf("exit %d, stderr %q, stdout %q", code, errs, out)
	}
}

func TestGraphWritesFile(t *testing.T) {
	file := vectorHistory(t, "V6")
	out := filepath.Join(t.TempDir(), "v6.dot")
	if code, _, errs := run(t, "graph", file, "--pinned", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "e1 -> a2") || !strings.Contains(string(b), `pos="`) {
		t.Fatalf("pinned DOT lacks edges or positions:\n%s", b)
	}
}
