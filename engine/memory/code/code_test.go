package code

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
)

func TestReadShell(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Shell
	}{
		{"cd /repo && go test ./engine/... 2>&1 | tail -20", Shell{Command: "go test ./engine/...", Program: "go", Test: true, Check: true}},
		{"CI=1 npm run test", Shell{Command: "npm run test", Program: "npm", Test: true, Check: true}},
		{"npm run check", Shell{Command: "npm run check", Program: "npm", Check: true}},
		{"cat -n src/a.go | head -50", Shell{Command: "cat -n src/a.go", Program: "cat", Reads: []string{"src/a.go"}}},
		{"sed -n '10,40p' pkg/x.py", Shell{Command: "sed -n '10,40p' pkg/x.py", Program: "sed", Reads: []string{"pkg/x.py"}}},
		{`rg -n "func Foo" engine/`, Shell{Command: `rg -n "func Foo" engine/`, Program: "rg", Pattern: "func Foo"}},
		{`find . -name "*.ts"`, Shell{Command: `find . -name "*.ts"`, Program: "find", Pattern: "*.ts"}},
		{"grep -n add calc.sh test.sh", Shell{Command: "grep -n add calc.sh test.sh", Program: "grep", Pattern: "add", Names: []string{"calc.sh", "test.sh"}}},
		{`grep -rn "theme" src/ docs/*.md Makefile`, Shell{Command: `grep -rn "theme" src/ docs/*.md Makefile`, Program: "grep", Pattern: "theme", Names: []string{"Makefile"}}},
		{"wc -l calc.sh test.sh notes.md", Shell{Command: "wc -l calc.sh test.sh notes.md", Program: "wc", Names: []string{"calc.sh", "test.sh", "notes.md"}}},
		{"diff -u a/x.go b/x.go", Shell{Command: "diff -u a/x.go b/x.go", Program: "diff", Names: []string{"a/x.go", "b/x.go"}}},
		{"ls -la", Shell{Command: "ls -la", Program: "ls"}},
		{"pip install -U requests flask", Shell{Command: "pip install -U requests flask", Program: "pip", Installs: []string{"requests", "flask"}}},
		{"cat > types/a.ts << 'EOF'\nexport type A = 1\nEOF", Shell{Command: "cat > types/a.ts << 'EOF'", Program: "cat", Writes: []string{"types/a.ts"}, Body: "export type A = 1"}},
	} {
		got := ReadShell(tc.line)
		tc.want.Line = tc.line
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ReadShell(%q)\n got %+v\nwant %+v", tc.line, got, tc.want)
		}
	}
}

func TestLooksLikeFile(t *testing.T) {
	for w, want := range map[string]bool{
		"calc.sh": true, "src/theme/dark.json": true, ".env": true, "Makefile": true, "pkg/Dockerfile": true,
		"src": false, "src/": false, ".": false, "..": false, "*.ts": false, "docs/[a-z].md": false, "": false, "add": false,
	} {
		if got := looksLikeFile(w); got != want {
			t.Errorf("looksLikeFile(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestErrorMessage(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Exit code 1\n> pkg@1.0 check\n> tsc\n\nsrc/a.ts(3,5): error TS2304: Cannot find name 'x'.", "src/a.ts(3,5): error TS2304: Cannot find name 'x'."},
		{"--- FAIL: TestFoo (0.00s)\n    foo_test.go:12: got 1", "--- FAIL: TestFoo (0.00s)"},
		{"Traceback (most recent call last):\n  File \"a.py\", line 3, in <module>\nZeroDivisionError: division by zero", "ZeroDivisionError: division by zero"},
		{"216 │  * @throws Error if none\nerror: build failed", "error: build failed"},
		{"Exit code 2", ""},
		{"ls: cannot access 'x': No such file or directory", "ls: cannot access 'x': No such file or directory"},
	} {
		if got := ErrorMessage(tc.text); got != tc.want {
			t.Errorf("ErrorMessage(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestLocations(t *testing.T) {
	got := Locations("engine/x.go:12:3: undefined: y\n  File \"/app/m.py\", line 7, in f\nversion 1.2:3 at example.com:80")
	want := []Location{{"engine/x.go", 12}, {"/app/m.py", 7}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Locations = %+v, want %+v", got, want)
	}
}

func TestDeclarationsAndImports(t *testing.T) {
	goSrc := "package x\n\nimport (\n\t\"fmt\"\n\tstr \"strings\"\n)\n\n// Foo does.\nfunc Foo() {}\nfunc (r *T) Bar(x int) {}\ntype Tree struct{}\n"
	if got, want := Declarations(goSrc), []Symbol{{"Foo", "function"}, {"Bar", "function"}, {"Tree", "type"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Go declarations %+v, want %+v", got, want)
	}
	if got, want := Imports("x.go", goSrc), []string{"fmt", "strings"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Go imports %v, want %v", got, want)
	}
	listing := "     1→import os\n     2→from pkg.sub import y\n     3→class Shape(Base):\n     4→    def area(self):\n"
	if got, want := Declarations(listing), []Symbol{{"Shape", "type"}, {"area", "function"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("listing declarations %+v, want %+v", got, want)
	}
	if got, want := Imports("a.py", listing), []string{"os", "pkg"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Python imports %v, want %v", got, want)
	}
	ts := "import React from 'react'\nimport { A } from './a'\nimport { T } from '@/types'\nexport function App() {}\nexport const fn = (x) => x\nexport interface Props {}\n"
	if got, want := Imports("a.tsx", ts), []string{"react"}; !reflect.DeepEqual(got, want) {
		t.Errorf("TS imports %v, want %v", got, want)
	}
	if got, want := Declarations(ts), []Symbol{{"App", "function"}, {"fn", "function"}, {"Props", "type"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("TS declarations %+v, want %+v", got, want)
	}
}

func TestReadCall(t *testing.T) {
	cls := cwl.DefaultClassifier()
	for _, tc := range []struct {
		tool, args string
		verb       Verb
		paths      []string
		lines      string
	}{
		{"Read", `{"file_path":"/r/a.go","offset":10,"limit":50}`, VerbRead, []string{"/r/a.go"}, "lines 10–59"},
		{"read", `{"path":"a.ts"}`, VerbRead, []string{"a.ts"}, ""},
		{"Edit", `{"file_path":"a.go","old_string":"x","new_string":"func A() {}"}`, VerbEdit, []string{"a.go"}, ""},
		{"Write", `{"file_path":"b.go","content":"package b"}`, VerbCreate, []string{"b.go"}, ""},
		{"str_replace_editor", `{"command":"view","path":"/w/m.py","view_range":[1,40]}`, VerbRead, []string{"/w/m.py"}, "lines 1–40"},
		{"str_replace_editor", `{"command":"create","path":"/w/n.py","file_text":"x=1"}`, VerbCreate, []string{"/w/n.py"}, ""},
		{"apply_patch", `{"input":"*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** End Patch"}`, VerbEdit, []string{"src/a.rs"}, ""},
		{"shell", `{"command":["bash","-lc","cat src/main.rs"]}`, VerbRead, []string{"src/main.rs"}, ""},
		{"Bash", `{"command":"go test ./..."}`, VerbRun, nil, ""},
		{"open", `{"command":"open src/x.py 120"}`, VerbRead, []string{"src/x.py"}, "from line 120"},
		{"WebFetch", `{"url":"https://go.dev/doc"}`, VerbFetch, nil, ""},
		{"Grep", `{"pattern":"TODO"}`, VerbSearch, nil, ""},
		{"Bash", `not json`, VerbOther, nil, ""},
	} {
		b := &session.Block{Type: session.BlockToolCall, ToolName: tc.tool, Arguments: json.RawMessage(tc.args)}
		c := ReadCall(b, cls)
		if c.Verb != tc.verb || !reflect.DeepEqual(c.Paths, tc.paths) || c.Lines != tc.lines {
			t.Errorf("%s %s: got %s %v %q, want %s %v %q", tc.tool, tc.args, c.Verb, c.Paths, c.Lines, tc.verb, tc.paths, tc.lines)
		}
	}
}

func TestRefRoundTrip(t *testing.T) {
	for _, r := range []Ref{{0, "abc", 0, 0}, {0, "a#b", 3, 2}, {2, "L17", 1, 0}, {1, "t9:x", 0, 4}} {
		got, ok := ParseRef(r.String())
		if !ok || got != r {
			t.Errorf("ParseRef(%q) = %+v %v, want %+v", r.String(), got, ok, r)
		}
	}
	for _, bad := range []string{"", "#1", "x#", "x#-1", "x#1.0", "x#a"} {
		if _, ok := ParseRef(bad); ok {
			t.Errorf("ParseRef(%q) accepted", bad)
		}
	}
}

func TestChunksKeepEveryByte(t *testing.T) {
	text := strings.Repeat("line of text\n", 200) + strings.Repeat("é", 1000)
	cs := chunks(text)
	if strings.Join(cs, "") != text {
		t.Fatal("chunks lose text")
	}
	for _, c := range cs {
		if len(c) > chunkBytes {
			t.Errorf("chunk of %d bytes", len(c))
		}
	}
}

// TestFixedByAndTestedBy reads a made-up thread in which a check fails,
// a file is edited and the check passes: the error is fixed by the file,
// and the test run tests it.
func TestFixedByAndTestedBy(t *testing.T) {
	call := func(id, cmd string) session.Block {
		args, _ := json.Marshal(map[string]string{"command": cmd})
		return session.Block{Type: session.BlockToolCall, ToolName: "Bash", ToolCallID: id, Arguments: args}
	}
	result := func(id, text string, isErr bool) session.Block {
		return session.Block{Type: session.BlockToolResult, ToolCallID: id, IsError: isErr, Content: []session.Block{{Type: session.BlockText, Text: text}}}
	}
	edit := session.Block{Type: session.BlockToolCall, ToolName: "Edit", ToolCallID: "e", Arguments: json.RawMessage(`{"file_path":"a.go","old_string":"x","new_string":"y"}`)}
	msgs := []*session.Message{
		{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: "fix the build"}}},
		{Role: session.RoleAssistant, Blocks: []session.Block{call("1", "go test ./...")}},
		{Role: session.RoleTool, Blocks: []session.Block{result("1", "a.go:3:1: undefined: y\nFAIL", true)}},
		{Role: session.RoleAssistant, Blocks: []session.Block{edit}},
		{Role: session.RoleTool, Blocks: []session.Block{result("e", "ok", false)}},
		{Role: session.RoleAssistant, Blocks: []session.Block{call("2", "go test ./...")}},
		{Role: session.RoleTool, Blocks: []session.Block{result("2", "ok  x 0.1s", false)}},
	}
	r := NewReader("m", nil)
	for i, m := range msgs {
		r.Add(0, &session.Entry{ID: string(rune('a' + i)), Kind: session.EntryMessage, Message: m, Line: i + 1})
	}
	got := map[string]bool{}
	g := r.Memory().Graph
	for _, rel := range g.Relations() {
		s, _ := g.Entity(rel.Subject)
		o, _ := g.Entity(rel.Object)
		got[s.Name+" | "+rel.Predicate+" | "+o.Name] = true
	}
	for _, want := range []string{
		"task 1: fix the build | ran | go test ./...",
		"go test ./... | failed-with | a.go:3:1: undefined: y",
		"a.go:3:1: undefined: y | arose-in | a.go",
		"task 1: fix the build | edited | a.go",
		"a.go:3:1: undefined: y | fixed-by | a.go",
		"a.go | tested-by | go test ./...",
	} {
		if !got[want] {
			t.Errorf("missing %q; have %v", want, got)
		}
	}
}

// TestSearchesAndInspectionsAreAboutTheirFiles: what a search over named
// files and an inspecting command (wc) print is evidence about those
// files, so that the files' entity leads to it; a directory searched is
// not a file.
func TestSearchesAndInspectionsAreAboutTheirFiles(t *testing.T) {
	call := func(id, tool, args string) session.Block {
		return session.Block{Type: session.BlockToolCall, ToolName: tool, ToolCallID: id, Arguments: json.RawMessage(args)}
	}
	result := func(id, text string) session.Block {
		return session.Block{Type: session.BlockToolResult, ToolCallID: id, Content: []session.Block{{Type: session.BlockText, Text: text}}}
	}
	msgs := []*session.Message{
		{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: "why does the adder subtract"}}},
		{Role: session.RoleAssistant, Blocks: []session.Block{call("1", "Bash", `{"command":"grep -n add calc.sh test.sh src/"}`)}},
		{Role: session.RoleTool, Blocks: []session.Block{result("1", "calc.sh:2:add() {\ntest.sh:1:. ./calc.sh")}},
		{Role: session.RoleAssistant, Blocks: []session.Block{call("2", "Bash", `{"command":"wc -l calc.sh notes.md"}`)}},
		{Role: session.RoleTool, Blocks: []session.Block{result("2", " 3 calc.sh\n 2 notes.md\n 5 total")}},
		{Role: session.RoleAssistant, Blocks: []session.Block{call("3", "Grep", `{"pattern":"subtract","path":"calc.sh"}`)}},
		{Role: session.RoleTool, Blocks: []session.Block{result("3", "2:  echo $(( $1 - $2 ))")}},
	}
	r := NewReader("m", nil)
	for i, m := range msgs {
		r.Add(0, &session.Entry{ID: string(rune('a' + i)), Kind: session.EntryMessage, Message: m, Line: i + 1})
	}
	mem := r.Memory()
	got := map[string][]string{} // predicate and file: the passages
	for _, rel := range mem.Graph.Relations() {
		o, _ := mem.Graph.Entity(rel.Object)
		if o.Type == TypeFile {
			got[rel.Predicate+" "+o.Name] = rel.Passages
		}
	}
	// Entries a…g: the results are c (grep), e (wc) and g (Grep).
	for want, results := range map[string][]string{
		"searched calc.sh":   {"c#0", "g#0"},
		"searched test.sh":   {"c#0"},
		"inspected calc.sh":  {"e#0"},
		"inspected notes.md": {"e#0"},
	} {
		for _, id := range results {
			if !slices.Contains(got[want], id) {
				t.Errorf("no %q with the result %s; have %v", want, id, got)
			}
		}
	}
	for k := range got {
		if strings.HasSuffix(k, " src") || strings.HasSuffix(k, " src/") {
			t.Errorf("a directory became a file: %q", k)
		}
	}
	if p, ok := mem.Passage("f#0"); !ok || p.Text != "Grep: subtract in calc.sh" {
		t.Errorf("the search call's passage: %+v", p)
	}
}
