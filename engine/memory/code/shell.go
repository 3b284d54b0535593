package code

import (
	"regexp"
	"strings"
)

// Shell is what one shell command line does, as far as its words tell.
type Shell struct {
	// Line is the command line as the agent wrote it.
	Line string
	// Command is the line as a reader would name it: without a leading
	// `cd dir &&`, environment assignments, a trailing `2>&1` or a pipe
	// into head/tail, cut to 120 characters.
	Command string
	// Program is the first word of Command ("go", "pytest", "npm").
	Program string
	// Test is set when the command runs tests.
	Test bool
	// Check is set when the command builds, type-checks or lints, or
	// runs tests: a command whose passing says the code is right.
	Check bool
	// Reads are files the command prints (cat, head, tail, sed -n, nl).
	Reads []string
	// Writes are files the command writes from a here-document
	// (`cat > file << 'EOF'`), with Body the document.
	Writes []string
	Body   string
	// Pattern is what the command searches for (grep, rg, find -name).
	Pattern string
	// Names are the files a command looks at without printing them whole:
	// those a search runs over (grep PATTERN FILE…) and those wc, stat,
	// diff and the like inspect. Only words that look like files count
	// (see looksLikeFile), not directories or globs.
	Names []string
	// Installs are packages the command installs.
	Installs []string
}

var (
	cdPrefix   = regexp.MustCompile(`^\s*cd\s+("[^"]*"|'[^']*'|\S+)\s*(&&|;)\s*`)
	envPrefix  = regexp.MustCompile(`^\s*(?:[A-Z_][A-Z0-9_]*=("[^"]*"|'[^']*'|\S*)\s+)+`)
	tailNoise  = regexp.MustCompile(`\s*(2>&1|\|\s*(head|tail)(\s+-n?\s*\d+|\s+-\d+)?|\|\s*cat)\s*$`)
	testRunner = regexp.MustCompile(`^(go\s+test|pytest|py\.test|python3?\s+-m\s+(pytest|unittest)|tox|nox|cargo\s+(test|nextest)|` +
		`(npm|pnpm|yarn|bun)\s+(run\s+)?test|npx\s+(jest|vitest|mocha|playwright)|jest|vitest|mocha|make\s+(test|check)\S*|` +
		`mvn\s+(\S+\s+)*test|gradle\w*\s+test|\./gradlew\s+test|dotnet\s+test|rspec|bundle\s+exec\s+rspec|phpunit|ctest)\b`)
	checker = regexp.MustCompile(`^(go\s+(build|vet|run|generate)|(npx\s+)?tsc|(npm|pnpm|yarn|bun)\s+(run\s+)?(build|check|lint|typecheck|compile)|` +
		`make\b|cargo\s+(build|check|clippy|run)|python3?\s+\S+\.py|node\s+\S+|eslint|ruff|mypy|pyright|gcc|g\+\+|clang|javac|mvn|gradle|dotnet\s+build|swift\s+build)`)
	installCmd = regexp.MustCompile(`^(?:(?:npm|pnpm)\s+(?:i|install|add)|yarn\s+add|bun\s+add|pip3?\s+install|uv\s+(?:pip\s+install|add)|` +
		`poetry\s+add|go\s+get|cargo\s+add|gem\s+install|(?:sudo\s+)?apt(?:-get)?\s+install)\s+(.*)$`)
	readCmd    = regexp.MustCompile(`^(cat|head|tail|nl|less|more|bat)\s+(.*)$`)
	sedPrint   = regexp.MustCompile(`^sed\s+-n\s+(?:'[^']*'|"[^"]*"|\S+)\s+(.*)$`)
	searchCmd  = regexp.MustCompile(`^(grep|rg|ag|ack|git\s+grep)\s+(.*)$`)
	inspectCmd = regexp.MustCompile(`^(wc|stat|file|diff|cmp|du|md5sum|sha1sum|sha256sum)\s+(.*)$`)
	findName   = regexp.MustCompile(`^find\s+.*?-i?name\s+("[^"]*"|'[^']*'|\S+)`)
	hereDoc    = regexp.MustCompile(`^(?:cat|tee)\s+(?:-a\s+)?>{0,2}\s*("[^"]*"|'[^']*'|[^\s<>]+)\s*<<-?\s*['"]?(\w+)['"]?\s*$`)
)

// ReadShell reads one shell command line.
func ReadShell(line string) Shell {
	cmd, body, _ := strings.Cut(strings.TrimSpace(line), "\n") // a script: its first line names it
	cmd = strings.TrimSpace(cmd)
	for {
		next := envPrefix.ReplaceAllString(cdPrefix.ReplaceAllString(cmd, ""), "")
		if next == cmd {
			break
		}
		cmd = next
	}
	for {
		next := tailNoise.ReplaceAllString(cmd, "")
		if next == cmd {
			break
		}
		cmd = next
	}
	sh := Shell{Line: line, Command: cut(cmd, 120)}
	if f := strings.Fields(cmd); len(f) > 0 {
		sh.Program = f[0]
	}
	if m := hereDoc.FindStringSubmatch(cmd); m != nil {
		sh.Writes = []string{unquote(m[1])}
		sh.Body, _, _ = strings.Cut(body, "\n"+m[2])
		return sh
	}
	sh.Test = testRunner.MatchString(cmd)
	sh.Check = sh.Test || checker.MatchString(cmd)
	if m := installCmd.FindStringSubmatch(cmd); m != nil {
		for _, w := range words(m[1]) {
			if !strings.HasPrefix(w, "-") && w != "." {
				sh.Installs = append(sh.Installs, w)
			}
		}
	}
	if m := readCmd.FindStringSubmatch(cmd); m != nil {
		sh.Reads = fileArgs(m[2])
	} else if m := sedPrint.FindStringSubmatch(cmd); m != nil {
		sh.Reads = fileArgs(m[1])
	}
	if m := searchCmd.FindStringSubmatch(cmd); m != nil {
		if args := nonFlags(m[2]); len(args) > 0 {
			sh.Pattern, sh.Names = args[0], fileNames(args[1:])
		}
	} else if m := findName.FindStringSubmatch(cmd); m != nil {
		sh.Pattern = unquote(m[1])
	} else if m := inspectCmd.FindStringSubmatch(cmd); m != nil {
		sh.Names = fileNames(fileArgs(m[2]))
	}
	return sh
}

// fileNames keeps the words that look like files.
func fileNames(ws []string) []string {
	var out []string
	for _, w := range ws {
		if looksLikeFile(w) {
			out = append(out, w)
		}
	}
	return out
}

// looksLikeFile reports whether a command's operand names a file rather
// than a directory, a glob or a pattern: its last element has an
// extension (calc.sh, README.md, .env) or is a well-known file without
// one (Makefile, Dockerfile), and it holds no glob or space.
func looksLikeFile(w string) bool {
	if w == "" || strings.ContainsAny(w, "*?[]{} \t") || strings.HasSuffix(w, "/") {
		return false
	}
	base := w[strings.LastIndexByte(w, '/')+1:]
	switch base {
	case "", ".", "..":
		return false
	case "Makefile", "Dockerfile", "LICENSE", "Gemfile", "Rakefile", "Procfile":
		return true
	}
	return strings.Contains(base, ".")
}

// fileArgs returns the words of args that look like files: not flags,
// not numbers, and stopping at the first pipe or redirection.
func fileArgs(args string) []string {
	var out []string
	for _, w := range nonFlags(args) {
		if isNumber(w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// nonFlags returns the words of args before the first pipe, redirection
// or command separator, without flags and their quotes.
func nonFlags(args string) []string {
	var out []string
	for _, w := range words(args) {
		switch {
		case w == "|" || w == "&&" || w == ";" || w == "||" || strings.HasPrefix(w, ">") || strings.HasPrefix(w, "2>"):
			return out
		case strings.HasPrefix(w, "-"):
			continue
		}
		out = append(out, unquote(w))
	}
	return out
}

// words splits a command line at spaces outside quotes.
func words(s string) []string {
	var out []string
	var cur strings.Builder
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			cur.WriteRune(r)
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
			cur.WriteRune(r)
		case r == ' ' || r == '\t':
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

func unquote(w string) string {
	if len(w) >= 2 && (w[0] == '"' || w[0] == '\'') && w[len(w)-1] == w[0] {
		return w[1 : len(w)-1]
	}
	return w
}

func isNumber(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if (r < '0' || r > '9') && r != ',' && r != '+' {
			return false
		}
	}
	return true
}

// cut shortens s to at most n bytes on a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !runeStart(s[n]) {
		n--
	}
	return strings.TrimSpace(s[:n]) + "…"
}

func runeStart(b byte) bool { return b&0xC0 != 0x80 }
