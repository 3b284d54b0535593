package code

import (
	"path"
	"regexp"
	"strings"
)

// Symbol is a function or type a piece of source code declares.
type Symbol struct {
	Name string
	Kind string // "function" or "type"
}

// declarations are the declaration forms of common languages, each with
// the kind of symbol its first group names.
var declarations = []struct {
	re   *regexp.Regexp
	kind string
}{
	{regexp.MustCompile(`(?m)^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[\[(]`), "function"},                                                  // Go
	{regexp.MustCompile(`(?m)^\s*type\s+([A-Za-z_]\w*)\s+(?:struct|interface)\b`), "type"},                                                      // Go
	{regexp.MustCompile(`(?m)^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(`), "function"},                                                          // Python
	{regexp.MustCompile(`(?m)^\s*class\s+([A-Za-z_]\w*)\s*[(:{]`), "type"},                                                                      // Python, JS
	{regexp.MustCompile(`(?m)^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*[<(]`), "function"},            // JS, TS
	{regexp.MustCompile(`(?m)^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)`), "type"},                             // JS, TS
	{regexp.MustCompile(`(?m)^\s*(?:export\s+)?(?:interface|enum)\s+([A-Za-z_$][\w$]*)`), "type"},                                               // TS
	{regexp.MustCompile(`(?m)^\s*(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>`), "function"}, // JS, TS
	{regexp.MustCompile(`(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+([A-Za-z_]\w*)`), "function"},                                       // Rust
	{regexp.MustCompile(`(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|trait)\s+([A-Za-z_]\w*)`), "type"},                                     // Rust
}

// sourceFiles are the extensions of the languages declarations are read
// from; prose and data files quote code without declaring it.
var sourceFiles = map[string]bool{
	".go": true, ".py": true, ".js": true, ".jsx": true, ".ts": true, ".tsx": true, ".mjs": true, ".cjs": true,
	".rs": true, ".svelte": true, ".vue": true,
}

// IsSource reports whether filename is source code of a language
// Declarations and Imports read.
func IsSource(filename string) bool { return sourceFiles[strings.ToLower(path.Ext(filename))] }

// Declarations returns the symbols source declares, each once, in order.
// Numbered listings (a Read tool's output) are read without their gutter.
func Declarations(source string) []Symbol {
	source = stripGutter(source)
	type found struct {
		at int
		s  Symbol
	}
	var all []found
	seen := map[string]bool{}
	for _, d := range declarations {
		for _, m := range d.re.FindAllStringSubmatchIndex(source, -1) {
			name := source[m[2]:m[3]]
			if seen[name] || len(name) < 2 {
				continue
			}
			seen[name] = true
			all = append(all, found{m[2], Symbol{Name: name, Kind: d.kind}})
		}
	}
	// In source order, so that a file's first declarations come first.
	for i := 1; i < len(all); i++ {
		for j := i; j > 0 && all[j].at < all[j-1].at; j-- {
			all[j], all[j-1] = all[j-1], all[j]
		}
	}
	out := make([]Symbol, len(all))
	for i, f := range all {
		out[i] = f.s
	}
	return out
}

var (
	goImportBlock = regexp.MustCompile(`(?s)\bimport\s*\((.*?)\)`)
	goImportOne   = regexp.MustCompile(`(?m)^\s*import\s+(?:[\w.]+\s+)?"([^"]+)"`)
	goImportLine  = regexp.MustCompile(`(?m)^\s*(?:[\w.]+\s+)?"([^"]+)"`)
	pyImport      = regexp.MustCompile(`(?m)^\s*(?:from\s+([A-Za-z_][\w.]*)\s+import\b|import\s+([A-Za-z_][\w.]*))`)
	jsImport      = regexp.MustCompile(`(?:\bfrom\s+|\brequire\(\s*|^\s*import\s+)['"]([^'"]+)['"]`)
)

// Imports returns the packages source code imports, each once: Go import
// paths, Python top-level modules, JavaScript module names. Relative
// imports are left out; they name files, not packages.
func Imports(filename, source string) []string {
	source = stripGutter(source)
	var raw []string
	switch strings.ToLower(path.Ext(filename)) {
	case ".go":
		for _, b := range goImportBlock.FindAllStringSubmatch(source, -1) {
			for _, m := range goImportLine.FindAllStringSubmatch(b[1], -1) {
				raw = append(raw, m[1])
			}
		}
		for _, m := range goImportOne.FindAllStringSubmatch(source, -1) {
			raw = append(raw, m[1])
		}
	case ".py":
		for _, m := range pyImport.FindAllStringSubmatch(source, -1) {
			mod := m[1] + m[2]
			if i := strings.IndexByte(mod, '.'); i > 0 {
				mod = mod[:i]
			}
			raw = append(raw, mod)
		}
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".svelte", ".vue":
		for _, line := range strings.Split(source, "\n") {
			for _, m := range jsImport.FindAllStringSubmatch(line, -1) {
				raw = append(raw, m[1])
			}
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range raw {
		if p == "" || strings.HasPrefix(p, ".") || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "@/") || strings.HasPrefix(p, "~/") || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}
