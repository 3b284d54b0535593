package cwl

import (
	"errors"
	"math/rand/v2"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

func TestParseLimitAndThreshold(t *testing.T) {
	tests := []struct {
		in     string
		window int
		want   int
		bad    bool
	}{
		{"50%", 200000, 100000, false},
		{"50k", 0, 50000, false},
		{"1.5K", 0, 1500, false},
		{"80000", 0, 80000, false},
		{"12.5", 0, 13, false}, // JavaScript rounds halves up
		{"0%", 0, 0, true},
		{"101%", 0, 0, true},
		{"abc", 0, 0, true},
		{"-5", 0, 0, true},
		{"0", 0, 0, false},
	}
	for _, tc := range tests {
		l, err := ParseLimit(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("%q: err %v", tc.in, err)
			continue
		}
		if err == nil {
			if got := Threshold(tc.window, l); got != tc.want {
				t.Errorf("%q over %d: threshold %d, want %d", tc.in, tc.window, got, tc.want)
			}
		}
	}
	if Threshold(0, nil) != DefaultThreshold {
		t.Error("nil limit is not the default threshold")
	}
}

func TestClassifier(t *testing.T) {
	c := DefaultClassifier()
	tests := map[string]ToolClass{
		"grep": ClassSearch, "Grep": ClassSearch, "LS": ClassSearch, "read": ClassRead, "Read": ClassRead,
		"bash": ClassShell, "exec_command": ClassShell, "execute_bash": ClassShell, "Edit": ClassEdit, "apply_patch": ClassEdit,
		"str_replace_editor": ClassEdit, "search_dir": ClassSearch, "open": ClassRead, "TodoWrite": ClassDurable,
		"mcp__fs__read": ClassRead, "mcp__cwl__delimiter": ClassDelimiter, "unknown_tool": ClassDurable,
		// Gemini CLI and Copilot CLI.
		"run_shell_command": ClassShell, "replace": ClassEdit, "write_file": ClassEdit, "read_many_files": ClassRead,
		"list_directory": ClassSearch, "view": ClassRead, "create": ClassEdit, "task": ClassDurable,
	}
	for name, want := range tests {
		if got := c.Class(name); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if err := c.Override([]byte(`{"rg":"search","cat":"intermediate"}`)); err != nil {
		t.Fatal(err)
	}
	if c.Class("rg") != ClassSearch || c.Class("cat") != ClassRead {
		t.Error("override not applied")
	}
	if err := c.Override([]byte(`{"x":"sometimes"}`)); err == nil {
		t.Error("unknown class accepted")
	}
}

func TestGraph(t *testing.T) {
	g := NewGraph()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(g.Add(Episode{ID: 0, Name: "e1", Kind: KindExpl}))
	must(g.Add(Episode{ID: 1, Name: "e2", Kind: KindExpl}))
	must(g.Add(Episode{ID: 2, Name: "a1", Kind: KindAct, Deps: []int{0, 1, 0}}))
	if err := g.Add(Episode{ID: 3, Name: "a2", Kind: KindAct, Deps: []int{2}}); !errors.Is(err, ErrBadDependency) {
		t.Errorf("act → act accepted: %v", err)
	}
	g2 := NewGraph()
	must(g2.Add(Episode{ID: 0, Name: "e1", Kind: KindExpl}))
	if err := g2.Add(Episode{ID: 5, Name: "x", Kind: KindExpl}); err == nil {
		t.Error("out-of-order id accepted")
	}
	deps, err := g.Dependencies(2)
	must(err)
	if len(deps) != 2 || deps[0] != 0 || deps[1] != 1 {
		t.Errorf("dependencies %v", deps)
	}
	if d := g.Dependents(0); len(d) != 1 || d[0] != 2 {
		t.Errorf("dependents %v", d)
	}
	order, err := g.Order()
	must(err)
	if order[len(order)-1] != 2 {
		t.Errorf("topological order %v", order)
	}
}

// TestInferredEpisodes checks inference on the largest real pi session:
// every episode is marked inferred, acts depend only on earlier expls, and
// episodes do not overlap.
func TestInferredEpisodes(t *testing.T) {
	s, err := ingest.ReadFile("../../testdata/shared/sessions/pi/pi-cwl__large-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	reqs := session.BuildRequests(s.Main())
	r, err := Prepare(reqs, estimateLedger(), PrepareOptions{Episodes: Inferred})
	if err != nil {
		t.Fatal(err)
	}
	eps := r.EpisodesOf(len(reqs) - 1)
	if eps.Mode != Inferred || len(eps.List) == 0 {
		t.Fatalf("mode %s with %d episodes", eps.Mode, len(eps.List))
	}
	acts, linked := 0, 0
	prevEnd := -1
	for _, e := range eps.List {
		if !e.Inferred {
			t.Errorf("%s not marked inferred", e.Name)
		}
		if e.Start <= prevEnd || e.End < e.Start {
			t.Errorf("%s [%d,%d] overlaps or is empty (previous end %d)", e.Name, e.Start, e.End, prevEnd)
		}
		prevEnd = e.End
		if e.Kind == KindAct {
			acts++
			if len(e.Deps) > 0 {
				linked++
			}
		}
		for _, d := range e.Deps {
			if d >= e.ID || eps.List[d].Kind != KindExpl {
				t.Errorf("%s depends on %d", e.Name, d)
			}
		}
	}
	if acts == 0 || linked == 0 {
		t.Errorf("%d act episodes, %d with dependencies", acts, linked)
	}
	// Declared mode finds nothing to evict in a session without delimiters.
	d, _ := Prepare(reqs, estimateLedger(), PrepareOptions{})
	tl, _ := d.Run(RunOptions{Policy: PolicyPaper, Budget: 20000})
	last := tl.Requests[len(tl.Requests)-1]
	if last.After != last.Before || last.Unreachable == nil || last.Unreachable.Blockers[0].Kind != BlockNoEpisodes {
		t.Errorf("declared replay of an unannotated session: %+v", last.Unreachable)
	}
}

func TestGraphPrefixAndActive(t *testing.T) {
	g := NewGraph()
	for i, e := range []Episode{
		{Name: "e1", Kind: KindExpl, Start: 1, End: 4, ClosedAt: 4},
		{Name: "a1", Kind: KindAct, Start: 5, End: 9, ClosedAt: -1, Deps: []int{0}},
	} {
		e.ID = i
		if err := g.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	if g.Present(1) != 0 || g.Present(2) != 1 || g.Present(10) != 2 {
		t.Errorf("present %d %d %d", g.Present(1), g.Present(2), g.Present(10))
	}
	if a := g.Active(3); len(a) != 1 || a[0] != 0 {
		t.Errorf("active at 3: %v", a)
	}
	if a := g.Active(8); len(a) != 1 || a[0] != 1 {
		t.Errorf("active at 8: %v", a)
	}
}

func TestUserRoleToolResultsAreToolOutput(t *testing.T) {
	res := &session.Message{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockToolResult, ToolCallID: "x"}}}
	turn := &session.Message{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: "hi"}}}
	if kindOf(res) != msgTool || kindOf(turn) != msgUser {
		t.Errorf("kinds %d %d", kindOf(res), kindOf(turn))
	}
}

// TestDeclaredEpisodesFromForgedEvents feeds chunk events the delimiter
// tool never writes (an expl chunk with dependencies, a dependency on an
// act, an unknown type): preparing must report them, not fail.
func TestDeclaredEpisodesFromForgedEvents(t *testing.T) {
	g := &historyGen{rng: rand.New(rand.NewPCG(4, 4))}
	g.user()
	event := func(id, action, chunk string) {
		g.assistant(session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: "delimiter", Arguments: []byte(`{}`)})
		g.result(id, "delimiter", "x", []byte(`{"chunkEvent":{"action":"`+action+`","chunk":`+chunk+`}}`))
	}
	event("c1", "start", `{"name":"a0","type":"act","dependencies":[]}`)
	event("c2", "end", `{"name":"a0","type":"act"}`)
	event("c3", "start", `{"name":"e1","type":"expl","dependencies":["a0"]}`)
	event("c4", "end", `{"name":"e1","type":"expl"}`)
	event("c5", "start", `{"name":"a1","type":"act","dependencies":["a0","e1","e1","zz"]}`)
	event("c6", "end", `{"name":"a1","type":"act"}`)
	event("c7", "start", `{"name":"e2","type":"expl","dependencies":["e1"]}`)
	event("c8", "end", `{"name":"e2","type":"expl"}`)
	event("c9", "start", `{"name":"q","type":"weird"}`)
	r, err := Prepare(session.BuildRequests(threadOf(g.msgs)), estimateLedger(), PrepareOptions{File: "forged.json"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Diagnostics()) < 3 {
		t.Errorf("diagnostics %v", r.Diagnostics())
	}
	for _, pol := range Policies {
		if _, err := r.Run(RunOptions{Policy: pol, Budget: 1}); err != nil {
			t.Fatal(err)
		}
	}
}
