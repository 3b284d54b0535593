package app

import (
	"bytes"
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryBoundMethodLogsItsCall checks the sources: each bound method
// records its call first, with every argument the frontend sends (all but
// the call's context), so that the call log sees all of it.
func TestEveryBoundMethodLogsItsCall(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	funcs := map[string]*ast.FuncDecl{} // "Recv.name" -> declaration
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv != nil {
				if star, ok := fn.Recv.List[0].Type.(*ast.StarExpr); ok {
					if recv, ok := star.X.(*ast.Ident); ok { // generic types are not bound
						funcs[recv.Name+"."+fn.Name.Name] = fn
					}
				}
			}
		}
	}
	seen := 0
	for _, name := range BoundMethods() {
		fn := funcs[name]
		if fn == nil {
			t.Errorf("%s: not declared", name)
			continue
		}
		seen++
		params := paramNames(fn)
		if !logsFirst(fn, name, params) {
			t.Errorf("%s: %s does not start with app.called(%q, %s)", fset.Position(fn.Pos()), name, name, strings.Join(params, ", "))
		}
	}
	if seen < 60 {
		t.Fatalf("found only %d bound methods", seen)
	}
}

// paramNames returns the names of fn's parameters, but for a context.
func paramNames(fn *ast.FuncDecl) []string {
	var params []string
	for _, p := range fn.Type.Params.List {
		if sel, ok := p.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Context" {
			continue
		}
		for _, n := range p.Names {
			params = append(params, n.Name)
		}
	}
	return params
}

func logsFirst(fn *ast.FuncDecl, name string, params []string) bool {
	if len(fn.Body.List) == 0 {
		return false
	}
	stmt, ok := fn.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := stmt.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "called" || len(call.Args) != len(params)+1 {
		return false
	}
	if lit, ok := call.Args[0].(*ast.BasicLit); !ok || lit.Value != `"`+name+`"` {
		return false
	}
	for i, p := range params {
		if id, ok := call.Args[i+1].(*ast.Ident); !ok || id.Name != p {
			return false
		}
	}
	return true
}

func TestCallLogRecordsArguments(t *testing.T) {
	var buf bytes.Buffer
	a := newApp(t, Options{CallLog: &buf})
	info, err := a.sessions.Initial(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.debugger.Threads(context.Background(), info.Key); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var last callRecord
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatal(err)
	}
	if last.Method != "Debugger.Threads" || len(last.Args) != 1 || last.Args[0] != info.Key {
		t.Fatalf("last call %+v", last)
	}
	if !strings.Contains(lines[0], `"Sessions.Initial"`) {
		t.Errorf("first call %s", lines[0])
	}
}
