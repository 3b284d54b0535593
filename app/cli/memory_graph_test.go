package cli

import (
	"strings"
	"testing"

	"ctxscope/engine/memory/embed/embedtest"
)

// TestMemoryGraph draws the offline memory of LoCoMo's first
// conversation: the ego graph of Caroline as DOT (positions pinned) and
// SVG, compared with golden files, and checks what the attributes carry.
func TestMemoryGraph(t *testing.T) {
	embedtest.Path(t)
	ws := t.TempDir()
	if out, errs, code := runCLI(t, ws, "memory", "build", "--locomo", locomoPath, "--sample", "0"); code != 0 {
		t.Fatalf("build: %d\n%s%s", code, out, errs)
	}
	args := []string{"memory", "graph", "--sample", "0", "--entity", "caroline", "--hops", "1", "--limit", "12"}
	dot, errs, code := runCLI(t, ws, args...)
	if code != 0 {
		t.Fatalf("graph: %d %s", code, errs)
	}
	golden(t, "memory_graph_caroline.dot", []byte(dot))
	svg, errs, code := runCLI(t, ws, append(args, "--format", "svg")...)
	if code != 0 {
		t.Fatalf("graph svg: %d %s", code, errs)
	}
	golden(t, "memory_graph_caroline.svg", []byte(svg))
	for _, want := range []string{`label=Caroline`, `hop="0"`, `label="go to"`, `time="7 May, 2023"`, `gran=day`, `origin=extracted`, `passages="D1:3"`, `pos="`} {
		if !strings.Contains(dot, want) {
			t.Errorf("DOT lacks %s", want)
		}
	}
	again, _, _ := runCLI(t, ws, args...)
	if again != dot {
		t.Error("the same graph and seed gave another picture")
	}

	whole, errs, code := runCLI(t, ws, "memory", "graph", "--memory", "conv-26")
	if code != 0 || strings.Count(whole, " -> ") < 40 {
		t.Errorf("whole graph: exit %d, %d edges, %s", code, strings.Count(whole, " -> "), errs)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"memory", "graph", "--entity", "nobody at all"}, 1, `no entity named "nobody at all"`},
		{[]string{"memory", "graph", "--format", "png"}, 2, "unknown format"},
		{[]string{"memory", "graph", "--memory", "conv-none"}, 1, "no such memory"},
	} {
		if _, errs, code := runCLI(t, ws, tc.args...); code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d %q, want %d %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}
