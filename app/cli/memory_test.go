package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"ctxscope/engine/memory/embed"
)

func runCLI(t *testing.T, ws string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(append([]string{"--workspace", ws}, args...), &Env{Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

func TestMemoryCommands(t *testing.T) {
	if _, err := embed.DefaultPath(); err != nil {
		t.Skip(err)
	}
	ws := t.TempDir()
	out, errs, code := runCLI(t, ws, "memory", "build", "--locomo", locomoPath, "--sample", "1")
	if code != 0 || !strings.Contains(out, "conv-30") {
		t.Fatalf("build: %d\n%s%s", code, out, errs)
	}
	out, errs, code = runCLI(t, ws, "memory", "query", "What is Gina's favorite style of dance?", "--json")
	if code != 0 {
		t.Fatalf("query: %d %s", code, errs)
	}
	var res struct {
		Items []struct {
			Kind string
			Why  struct{ Channel string }
		}
		Tokens int
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Items) == 0 || res.Tokens == 0 {
		t.Fatalf("query json: %v\n%s", err, out)
	}
	out, errs, code = runCLI(t, ws, "memory", "eval", "--locomo", locomoPath, "--sample", "1")
	if code != 0 || !strings.Contains(out, "baseline: BM25 turns, top 20") || !strings.Contains(out, "budgeted ≤1000") {
		t.Fatalf("eval: %d\n%s%s", code, out, errs)
	}
	kg := "../../../shared/data/memweaver-kg/"
	out, errs, code = runCLI(t, ws, "memory", "import-kg", kg+"kg_sample_1.json", kg+"clusters_sample_1.json", "--locomo", locomoPath, "--sample", "1")
	if code != 0 || !strings.Contains(out, "189 entities") || !strings.Contains(out, "51 experience items") {
		t.Fatalf("import: %d\n%s%s", code, out, errs)
	}
	out, _, code = runCLI(t, ws, "memory", "query", "--memory", "imported-conv-30", "What is Gina's favorite style of dance?")
	if code != 0 || !strings.Contains(out, "KNOWLEDGE GRAPH TRIPLES") {
		t.Fatalf("query imported: %d\n%s", code, out)
	}
}

func TestMemoryUsage(t *testing.T) {
	ws := t.TempDir()
	for _, args := range [][]string{
		{"memory"},
		{"memory", "frobnicate"},
		{"memory", "build"},
		{"memory", "import-kg", "one.json"},
		{"memory", "query"},
		{"memory", "build", "--locomo", locomoPath, "--sample", "99"},
	} {
		if _, _, code := runCLI(t, ws, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if _, errs, code := runCLI(t, ws, "memory", "build", "--locomo", "/nonexistent.json"); code != 1 || errs == "" {
		t.Errorf("missing file: exit %d %q", code, errs)
	}
}
