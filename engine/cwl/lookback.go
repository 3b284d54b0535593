package cwl

import (
	"path"
	"strings"

	"ctxscope/engine/session"
)

// inspecting lists the programs whose run only shows what is there (a
// file, a listing, a search, history), so that running one again with the
// same arguments goes back for output seen before. Commands that build,
// test or change things are left out: running them again asks for new
// output.
var inspecting = map[string]bool{"cat": true, "head": true, "tail": true, "less": true, "more": true, "nl": true, "ls": true,
	"tree": true, "find": true, "fd": true, "grep": true, "egrep": true, "rg": true, "ag": true, "ack": true, "wc": true,
	"stat": true, "file": true, "bat": true, "sed -n": true, "git show": true, "git log": true, "git blame": true, "git grep": true}

// lookKey is what a tool call at block b reads, searches or runs, as a
// key that an identical later call shares: "read <path>" for a read,
// "search <pattern> @<path>" for a search, "run <command>" for an
// inspecting shell command (whitespace folded); kind is "read", "search"
// or "run". Other calls have no key.
func lookKey(p *Plan, b int) (kind, key string) {
	if p.bType[b] != session.BlockToolCall {
		return "", ""
	}
	switch p.bClass[b] {
	case ClassRead:
		if f := cleanPath(p.bPath[b]); f != "" {
			return "read", "read " + f
		}
	case ClassSearch:
		if q := searchArg(p.arguments(b)); q != "" {
			return "search", "search " + q + " @" + cleanPath(p.bPath[b])
		}
	case ClassShell:
		line := strings.Join(strings.Fields(commandLine(p.arguments(b))), " ")
		if line != "" && inspects(line) {
			return "run", "run " + line
		}
	}
	return "", ""
}

// inspects reports whether every step of a shell line (cd steps aside)
// runs an inspecting program, and nothing is written to a file (cat >
// f writes one).
func inspects(line string) bool {
	for _, quiet := range []string{"2>&1", "2>/dev/null", ">/dev/null", "> /dev/null"} {
		line = strings.ReplaceAll(line, quiet, "")
	}
	if strings.Contains(line, ">") {
		return false
	}
	steps := 0
	for _, step := range strings.FieldsFunc(line, func(r rune) bool { return r == '&' || r == ';' || r == '|' }) {
		f := strings.Fields(step)
		if len(f) == 0 || f[0] == "cd" {
			continue
		}
		steps++
		prog := path.Base(f[0])
		if len(f) > 1 && (prog == "git" || (prog == "sed" && f[1] == "-n")) {
			prog += " " + f[1]
		}
		if !inspecting[prog] {
			return false
		}
	}
	return steps > 0
}

// arguments returns the raw arguments of the tool call at block b.
func (p *Plan) arguments(b int) []byte {
	i := p.bMsg[b]
	return p.Msgs[i].Blocks[int32(b)-p.mFirst[i]].Arguments
}
