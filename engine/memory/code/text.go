package code

import (
	"regexp"
	"strconv"
	"strings"
)

// Location is a place in a file an error or a read names.
type Location struct {
	Path string
	Line int // 0 when unknown
}

var (
	ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)
	// lineNumber is the gutter of a numbered listing: Claude Code's
	// "    12→", cat -n's "    12\t", SWE-agent's "12:".
	lineNumber = regexp.MustCompile(`(?m)^\s*\d+(?:→|\t|:\s)`)
	exitStatus = regexp.MustCompile(`(?i)\b(?:exit(?:ed with)? (?:code|status)|process exited with code|returncode)[:=]?\s*([1-9]\d*)`)
	// strongError is how compilers, runtimes and tools start the line
	// that says what failed; weakError words also occur in ordinary
	// output and count only when no line reads as a strong one.
	strongError = regexp.MustCompile(`(?i)(^\S+\.\w{1,5}:\d+(:\d+)?: |\berror( TS\d+| \[?E\d+\]?)?:|^\w*(Error|Exception)\b|^panic:|^fatal:|^FAIL\b|--- FAIL|npm ERR!|` +
		`^E\s+\w+Error|no such file or directory|command not found|permission denied|segmentation fault)`)
	weakError = regexp.MustCompile(`(?i)(\berror\b|\bexception\b|\bfatal\b|\bfailed\b|traceback|\bcannot\b|\bcan't\b|not found|undefined|\btimed? ?out\b)`)
	// listingLine is a line of a numbered source listing, which quotes
	// code rather than reports an error.
	listingLine = regexp.MustCompile(`^\s*\d+\s*(│|\||→|:\s)`)
	// pathLine is "path/to/file.ext:12" (optionally ":col"), as
	// compilers, linters and stack traces write it.
	pathLine = regexp.MustCompile(`(?:^|[\s("'])((?:[\w.@+-]+/)*[\w.@+-]+\.[A-Za-z]{1,5}):(\d+)(?::\d+)?\b`)
	// pyFrame is a Python traceback frame.
	pyFrame     = regexp.MustCompile(`File "([^"]+)", line (\d+)`)
	failingTest = regexp.MustCompile(`(?m)(?:^--- FAIL: (\S+)|^FAILED (\S+?)(?:\s|$)|^\s*(?:✕|✗|×)\s+(.+?)\s*(?:\(\d+\s*m?s\))?$|^FAIL:? (test\w*) )`)
	urlPattern  = regexp.MustCompile(`https?://[^\s"'<>()\[\]{}\x60]+`)
	issueRef    = regexp.MustCompile(`(?i)\b(issue|bug|ticket|pr|pull request)\s*#?(\d{1,6})\b`)
	markup      = regexp.MustCompile(`</?[a-zA-Z][\w-]*(?:\s[^<>]*)?>`)
)

// clean removes terminal colour codes and trims s.
func clean(s string) string { return strings.TrimSpace(ansi.ReplaceAllString(s, "")) }

// stripGutter removes the line numbers of a numbered listing.
func stripGutter(s string) string { return lineNumber.ReplaceAllString(s, "") }

// failed reports whether a tool result says its command failed: the tool
// marked it as an error, or it reports a non-zero exit status, or a test
// run printed failures.
func failed(isError bool, text string) bool {
	if isError {
		return true
	}
	return exitStatus.MatchString(text) || failingTest.MatchString(text)
}

// ErrorMessage picks the line of a failed result that says what went
// wrong: the first line that reads as a compiler's or runtime's error,
// else the first that mentions a failure, else the first non-empty line;
// never a bare exit status or a line of quoted source. It is cut to 160
// characters.
func ErrorMessage(text string) string {
	var first, weak string
	for _, line := range strings.Split(text, "\n") {
		line = clean(line)
		if line == "" || listingLine.MatchString(line) || (exitStatus.MatchString(line) && len(line) < 40) {
			continue
		}
		if strongError.MatchString(line) {
			return cut(line, 160)
		}
		if weak == "" && weakError.MatchString(line) {
			weak = line
		}
		if first == "" && !strings.HasPrefix(line, "> ") { // npm's banner of the script it runs
			first = line
		}
	}
	return cut(firstOf(weak, first), 160)
}

// Locations returns the file locations a text names, each once, in order.
func Locations(text string) []Location {
	var out []Location
	seen := map[Location]bool{}
	add := func(path, line string) {
		n, _ := strconv.Atoi(line)
		l := Location{Path: strings.TrimPrefix(path, "./"), Line: n}
		if !seen[l] && plausiblePath(l.Path) {
			seen[l] = true
			out = append(out, l)
		}
	}
	for _, m := range pathLine.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2])
	}
	for _, m := range pyFrame.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2])
	}
	return out
}

// plausiblePath rejects what pathLine matches that is no file: version
// numbers, times, hosts with ports.
func plausiblePath(p string) bool {
	ext := p[strings.LastIndexByte(p, '.')+1:]
	if isNumber(ext) || strings.HasPrefix(p, "www.") || strings.Contains(p, "://") {
		return false
	}
	switch strings.ToLower(ext) {
	case "com", "org", "net", "io", "dev", "local":
		return false
	}
	return true
}

// FailingTests returns the names of tests a test run's output reports as
// failed.
func FailingTests(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range failingTest.FindAllStringSubmatch(clean(text), -1) {
		for _, g := range m[1:] {
			if g = strings.TrimSpace(g); g != "" && !seen[g] {
				seen[g] = true
				out = append(out, cut(g, 120))
			}
		}
	}
	return out
}

// URLs returns the web addresses in text, each once.
func URLs(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, u := range urlPattern.FindAllString(text, -1) {
		u = strings.TrimRight(u, ".,;:!?")
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}

// IssueRefs returns the issues and pull requests text names, as
// "issue #12" or "PR #7".
func IssueRefs(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range issueRef.FindAllStringSubmatch(text, -1) {
		kind := strings.ToLower(m[1])
		switch kind {
		case "pr", "pull request":
			kind = "PR"
		}
		ref := kind + " #" + m[2]
		if !seen[ref] {
			seen[ref] = true
			out = append(out, ref)
		}
	}
	return out
}

// TaskName names a user turn: its first line without markup, cut to 70
// characters; "" when nothing readable is left.
func TaskName(text string) string {
	text = markup.ReplaceAllString(text, " ")
	for _, line := range strings.Split(text, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line != "" {
			return cut(line, 70)
		}
	}
	return ""
}
