// Package bindgen writes the TypeScript side of the bound services: an
// interface for every Go type their methods take or return (as
// encoding/json writes it) and a typed function for every method. The
// frontend calls the services only through what it writes, so a Go field
// renamed or retyped breaks the frontend's type check instead of its
// behaviour. It reads the Go source for the parameter names.
package bindgen

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"
)

// Service is one bound service: its value and the methods the frontend
// may call, in order.
type Service struct {
	Value   any
	Methods []string
}

// Options configure a generation.
type Options struct {
	// SourceDirs are the directories whose Go files declare the services'
	// methods, read for parameter names.
	SourceDirs []string
	// Override gives the TypeScript of types whose JSON encoding is their
	// own (a json.Marshaler).
	Override map[reflect.Type]string
	// Extra are values of further types to declare: the payloads of
	// events the services emit.
	Extra []any
	// Header is written first, as a comment.
	Header string
}

var (
	timeType      = reflect.TypeOf(time.Time{})
	durationType  = reflect.TypeOf(time.Duration(0))
	rawType       = reflect.TypeOf(json.RawMessage(nil))
	contextType   = reflect.TypeOf((*interface{ Done() <-chan struct{} })(nil)).Elem()
	errorType     = reflect.TypeOf((*error)(nil)).Elem()
	marshalerType = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
)

// Generate writes the TypeScript module for services.
func Generate(services []Service, o Options) (string, error) {
	names, err := paramNames(o.SourceDirs)
	if err != nil {
		return "", err
	}
	g := &gen{override: o.Override, names: map[reflect.Type]string{}, taken: map[string]reflect.Type{}}
	var calls strings.Builder
	for _, s := range services {
		v := reflect.ValueOf(s.Value)
		svc := v.Elem().Type().Name()
		fmt.Fprintf(&calls, "\n// %s is the %s service.\nexport const %s = {\n", svc, svc, svc)
		for _, m := range s.Methods {
			mt, ok := v.Type().MethodByName(m)
			if !ok {
				return "", fmt.Errorf("bindgen: %s has no method %s", svc, m)
			}
			sig, err := g.method(svc, m, mt.Type, names[svc+"."+m])
			if err != nil {
				return "", err
			}
			calls.WriteString(sig)
		}
		calls.WriteString("};\n")
	}
	for _, x := range o.Extra {
		g.ts(reflect.TypeOf(x), false)
	}
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(o.Header), "\n") {
		out.WriteString("// " + line + "\n")
	}
	out.WriteString("import { call } from './call';\n")
	for _, t := range g.sorted() {
		out.WriteString(g.decl(t))
	}
	out.WriteString(calls.String())
	return out.String(), g.err
}

type gen struct {
	override map[reflect.Type]string
	names    map[reflect.Type]string // named struct types -> TypeScript name
	taken    map[string]reflect.Type
	order    []reflect.Type
	err      error
}

// method writes one method as a typed call; the receiver is the first
// parameter of mt.
func (g *gen) method(svc, name string, mt reflect.Type, params []string) (string, error) {
	var args, pass []string
	for i := 1; i < mt.NumIn(); i++ {
		t := mt.In(i)
		if t.Implements(contextType) && i == 1 {
			continue
		}
		n := fmt.Sprintf("arg%d", len(args)+1)
		if j := len(args); j < len(params) && params[j] != "" && params[j] != "_" {
			n = params[j]
		}
		args = append(args, n+": "+g.ts(t, false))
		pass = append(pass, n)
	}
	result := "void"
	for i := 0; i < mt.NumOut(); i++ {
		if t := mt.Out(i); t != errorType {
			result = g.ts(deref(t), false)
			break
		}
	}
	callArgs := append([]string{"'" + svc + "'", "'" + name + "'"}, pass...)
	return fmt.Sprintf("  %s: (%s) => call<%s>(%s),\n", name, strings.Join(args, ", "), result, strings.Join(callArgs, ", ")), nil
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// ts is the TypeScript of t; nullable marks a pointer that JSON writes as
// null when nil.
func (g *gen) ts(t reflect.Type, nullable bool) string {
	if s, ok := g.override[t]; ok {
		return s
	}
	switch t {
	case timeType:
		return "string"
	case durationType:
		return "number"
	case rawType:
		return "unknown"
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && (t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType)) {
		g.fail(fmt.Errorf("bindgen: %s encodes itself; give it an override", t))
		return "unknown"
	}
	switch t.Kind() {
	case reflect.Pointer:
		s := g.ts(t.Elem(), false)
		if nullable {
			return s + " | null"
		}
		return s
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Uint8:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return "string" // base64
		}
		return array(g.ts(t.Elem(), false))
	case reflect.Map:
		return "Record<string, " + g.ts(t.Elem(), false) + ">"
	case reflect.Struct:
		return g.named(t)
	case reflect.Interface:
		return "unknown"
	}
	g.fail(fmt.Errorf("bindgen: no TypeScript for %s", t))
	return "unknown"
}

func array(elem string) string {
	if strings.ContainsAny(elem, " |") {
		return "(" + elem + ")[]"
	}
	return elem + "[]"
}

func (g *gen) fail(err error) {
	if g.err == nil {
		g.err = err
	}
}

// named returns the TypeScript name of a struct type, registering it for
// declaration: its Go name, or with its package's name in front when
// another package has a type of that name.
func (g *gen) named(t reflect.Type) string {
	if n, ok := g.names[t]; ok {
		return n
	}
	if t.Name() == "" {
		g.fail(fmt.Errorf("bindgen: anonymous struct %s", t))
		return "unknown"
	}
	n := t.Name()
	if other, ok := g.taken[n]; ok && other != t {
		n = exportName(filepath.Base(t.PkgPath())) + n
	}
	g.names[t] = n
	g.taken[n] = t
	g.order = append(g.order, t)
	for _, f := range fields(t) {
		g.ts(f.typ, f.nullable)
	}
	return n
}

func exportName(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// field is one field of a struct as JSON writes it.
type field struct {
	name     string
	typ      reflect.Type
	optional bool // omitempty: absent when empty
	nullable bool // a pointer without omitempty: null when nil
	doc      string
}

// fields lists t's fields as encoding/json writes them: embedded structs
// without a name of their own are flattened, and a field of t hides an
// embedded one of the same name (Go's rule for the shallower field).
func fields(t reflect.Type) []field {
	var own, embedded []field
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			if et := deref(f.Type); et.Kind() == reflect.Struct {
				embedded = append(embedded, fields(et)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		omit := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		own = append(own, field{name: name, typ: f.Type, optional: omit, nullable: !omit && f.Type.Kind() == reflect.Pointer})
	}
	hidden := map[string]bool{}
	for _, f := range own {
		hidden[f.name] = true
	}
	var out []field
	for _, f := range embedded {
		if !hidden[f.name] {
			out = append(out, f)
		}
	}
	return append(out, own...)
}

// sorted returns the declared types by TypeScript name, so that the
// output does not depend on discovery order.
func (g *gen) sorted() []reflect.Type {
	out := append([]reflect.Type(nil), g.order...)
	sort.Slice(out, func(i, j int) bool { return g.names[out[i]] < g.names[out[j]] })
	return out
}

// decl declares one struct type as an interface.
func (g *gen) decl(t reflect.Type) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n// %s is %s.%s.\nexport interface %s {\n", g.names[t], filepath.Base(t.PkgPath()), t.Name(), g.names[t])
	for _, f := range fields(t) {
		opt := ""
		if f.optional {
			opt = "?"
		}
		fmt.Fprintf(&b, "  %s%s: %s;\n", quoteKey(f.name), opt, g.ts(f.typ, f.nullable))
	}
	b.WriteString("}\n")
	return b.String()
}

func quoteKey(k string) string {
	for _, r := range k {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return "'" + k + "'"
		}
	}
	return k
}

// paramNames reads the parameter names of every method declared in the
// Go files of dirs (tests included), as "Type.Method" -> names (a context parameter left
// out).
func paramNames(dirs []string) (map[string][]string, error) {
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			return nil, err
		}
		for _, path := range files {
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
					continue
				}
				recv := fd.Recv.List[0].Type
				if st, ok := recv.(*ast.StarExpr); ok {
					recv = st.X
				}
				id, ok := recv.(*ast.Ident)
				if !ok {
					continue
				}
				var names []string
				for _, p := range fd.Type.Params.List {
					if sel, ok := p.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Context" {
						continue
					}
					for _, n := range p.Names {
						names = append(names, n.Name)
					}
				}
				out[id.Name+"."+fd.Name.Name] = names
			}
		}
	}
	return out, nil
}
