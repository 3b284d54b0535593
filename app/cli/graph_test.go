package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// vectorHistory writes the message history of CWL conformance vector id
// to a session file (a JSON array of pi AgentMessages) and returns its
// path.
func vectorHistory(t *testing.T, id string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "cwl-vectors", "public.json"))
	if err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	var f struct {
		Vectors []struct {
			ID      string          `json:"id"`
			History json.RawMessage `json:"history"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	for _, v := range f.Vectors {
		if v.ID == id {
			path := filepath.Join(t.TempDir(), strings.ToLower(id)+".json")
			if err := os.WriteFile(path, v.History, 0o644); err != nil {
				t.Fatal(err)
			}
			return path
		}
	}
	t.Fatalf("no vector %s", id)
	return ""
}

func run(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Run(args, &Env{Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func TestGraphGolden(t *testing.T) {
	for _, tc := range []struct{ vector, format string }{{"V6", "dot"}, {"V10", "dot"}, {"V6", "svg"}} {
		file := vectorHistory(t, tc.vector)
		code, out, errs := run("graph", file, "--format", tc.format)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.vector, code, errs)
		}
		golden := filepath.Join("testdata", "graph_"+strings.ToLower(tc.vector)+"."+tc.format)
		if *update {
			if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if out != string(want) {
			t.Errorf("%s differs from %s (run with -update to accept):\n%s", tc.vector, golden, out)
		}
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
		{"inferred not yet", []string{"graph", file, "--episodes", "inferred"}, 1, "inferred episodes are not available yet"},
		{"bad format", []string{"graph", file, "--format", "png"}, 2, `unknown format "png"`},
		{"bad episodes", []string{"graph", file, "--episodes", "guessed"}, 2, `unknown episodes "guessed"`},
		{"bad ranking", []string{"graph", file, "--ranking", "alpha"}, 2, `unknown ranking "alpha"`},
		{"no file", []string{"graph"}, 2, "need exactly one FILE"},
		{"missing file", []string{"graph", filepath.Join(t.TempDir(), "none.jsonl")}, 1, "no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, errs, tc.code, tc.want)
			}
		})
	}
}

func TestGraphWithoutEpisodesIsEmpty(t *testing.T) {
	file := filepath.Join("..", "..", "..", "shared", "data", "sessions", "pi", "agent-sessions__pi-v3-small.jsonl")
	if _, err := os.Stat(file); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	code, out, errs := run("graph", file, "--format", "svg")
	if code != 0 || !strings.Contains(errs, "declares no episodes") || !strings.Contains(out, "</svg>") {
		t.Fatalf("exit %d, stderr %q, stdout %q", code, errs, out)
	}
}

func TestGraphWritesFile(t *testing.T) {
	file := vectorHistory(t, "V6")
	out := filepath.Join(t.TempDir(), "v6.dot")
	if code, _, errs := run("graph", file, "--pinned", "-o", out); code != 0 {
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
