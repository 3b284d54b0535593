package cwl

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"ctxscope/engine/session"
)

// maxTitleSubject bounds the subject of an inferred episode's title (a
// file name, a search pattern or a command), in bytes.
const maxTitleSubject = 32

// title names inferred episode e of p by what it mainly did: "edit
// pagination.go +2" for an act episode (the file it edits most, and how
// many other files it edits), "read server.go +3" or "search
// 'handleRequest'" for an exploration, "run go test" for one that only
// ran commands. Failing those, it is the kind and the tool it called most
// ("act: edit +1"); an episode with no tool calls keeps its kind.
func title(p *Plan, e *Episode) string {
	var edits, reads, searches, commands, tools CountOrder
	for i := e.Start; i <= e.End && i < len(p.Msgs); i++ {
		if p.mKind[i] != msgAssistant {
			continue
		}
		for b := p.mFirst[i]; b < p.mFirst[i+1]; b++ {
			if p.bType[b] != session.BlockToolCall {
				continue
			}
			raw := p.arguments(int(b))
			tools.Add(p.bName[b])
			switch p.bClass[b] {
			case ClassEdit:
				for _, f := range editPaths(p, int(b)) {
					edits.Add(path.Base(f))
				}
			case ClassRead:
				if f := cleanPath(p.bPath[b]); f != "" {
					reads.Add(path.Base(f))
				}
			case ClassSearch:
				if q := searchArg(raw); q != "" {
					searches.Add(q)
				} else if f := cleanPath(p.bPath[b]); f != "" {
					reads.Add(path.Base(f))
				}
			case ClassShell:
				if c := commandHead(raw); c != "" {
					commands.Add(c)
				}
			}
		}
	}
	switch {
	case e.Kind == KindAct && len(edits.Names) > 0:
		return "edit " + mostOf(edits)
	case len(reads.Names) > 0:
		return "read " + mostOf(reads)
	case len(searches.Names) > 0:
		return "search '" + mostOf(searches) + "'"
	case len(commands.Names) > 0:
		return "run " + mostOf(commands)
	case len(tools.Names) > 0:
		return e.Kind + ": " + mostOf(tools)
	}
	return e.Kind
}

// mostOf is the most counted name of c (the first on a tie), cut to
// maxTitleSubject, with "+N" for the N other names.
func mostOf(c CountOrder) string {
	best := 0
	for i, n := range c.Counts {
		if n > c.Counts[best] {
			best = i
		}
	}
	s := c.Names[best]
	if len(s) > maxTitleSubject {
		s = strings.ToValidUTF8(s[:maxTitleSubject], "") + "…"
	}
	if others := len(c.Names) - 1; others > 0 {
		s += fmt.Sprintf(" +%d", others)
	}
	return s
}

// searchArg is the pattern of a search call: its pattern, query or regex
// argument, on one line.
func searchArg(raw json.RawMessage) string {
	var a struct {
		Pattern string `json:"pattern"`
		Query   string `json:"query"`
		Regex   string `json:"regex"`
	}
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &a) != nil {
		return ""
	}
	for _, s := range []string{a.Pattern, a.Query, a.Regex} {
		if s = strings.Join(strings.Fields(s), " "); s != "" {
			return s
		}
	}
	return ""
}

// commandHead is what a shell call runs, in a word or two: the program
// ("pytest", "ls"), with its subcommand for tools that have them ("go
// test", "npm run", "git diff"). A shell wrapper ("bash -lc …") and
// leading "cd dir &&" steps are looked through.
func commandHead(raw json.RawMessage) string { return headOf(commandLine(raw)) }

// commandLine is the command of a shell call: its command or cmd
// argument, a string or an argv list (a shell wrapper's script for
// "bash -lc script"); "" when it has none.
func commandLine(raw json.RawMessage) string {
	var a struct {
		Command json.RawMessage `json:"command"`
		Cmd     json.RawMessage `json:"cmd"`
	}
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &a) != nil {
		return ""
	}
	c := a.Command
	if len(c) == 0 {
		c = a.Cmd
	}
	var line string
	var argv []string
	switch {
	case json.Unmarshal(c, &line) == nil:
		return line
	case json.Unmarshal(c, &argv) == nil:
		if len(argv) >= 3 && isShell(argv[0]) && strings.HasPrefix(argv[1], "-") {
			return argv[2]
		}
		return strings.Join(argv, " ")
	}
	return ""
}

// subcommanded lists programs whose first argument says what they do.
var subcommanded = map[string]bool{"go": true, "git": true, "npm": true, "npx": true, "yarn": true, "pnpm": true,
	"cargo": true, "make": true, "docker": true, "kubectl": true, "uv": true, "poetry": true, "bun": true, "dotnet": true, "gh": true}

// headOf is the program of the first step of a shell line that is not a
// comment or a cd, with its subcommand when it has one.
func headOf(line string) string {
	for _, step := range strings.FieldsFunc(line, func(r rune) bool { return r == '&' || r == ';' || r == '|' || r == '\n' }) {
		f := strings.Fields(step)
		for len(f) > 0 && strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "-") { // VAR=value prefixes
			f = f[1:]
		}
		if len(f) == 0 || strings.HasPrefix(f[0], "#") || f[0] == "cd" || f[0] == "source" || f[0] == "." || f[0] == "set" || f[0] == "export" {
			continue
		}
		if isShell(f[0]) && len(f) >= 3 && strings.HasPrefix(f[1], "-") {
			return headOf(strings.Trim(strings.Join(f[2:], " "), `'"`))
		}
		prog := path.Base(f[0])
		if (prog == "python" || prog == "python3") && len(f) >= 3 && f[1] == "-m" {
			return f[2]
		}
		if subcommanded[prog] && len(f) >= 2 && !strings.HasPrefix(f[1], "-") {
			return prog + " " + f[1]
		}
		return prog
	}
	return ""
}

func isShell(s string) bool {
	switch path.Base(s) {
	case "bash", "sh", "zsh", "dash":
		return true
	}
	return false
}

// nameInferred gives every inferred episode of eps its title as name,
// numbered "(2)", "(3)" where titles repeat, in order.
func nameInferred(p *Plan, eps *Episodes) {
	seen := map[string]int{}
	for k := range eps.List {
		e := &eps.List[k]
		if e.Kind == KindUnannotated {
			continue
		}
		t := title(p, e)
		seen[t]++
		if n := seen[t]; n > 1 {
			t = fmt.Sprintf("%s (%d)", t, n)
		}
		e.Name = t
	}
}
