package code

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
)

// Verb is what a tool call does, for the memory.
type Verb string

// Verbs.
const (
	VerbRead   Verb = "read"
	VerbSearch Verb = "search"
	VerbEdit   Verb = "edit"
	VerbCreate Verb = "create"
	VerbRun    Verb = "run"
	VerbFetch  Verb = "fetch"
	VerbOther  Verb = "other"
)

// Call is one tool call, read for the memory.
type Call struct {
	Tool string
	Verb Verb
	// Paths are the files the call reads, edits or creates.
	Paths []string
	// Lines is the span of a read, "lines 10–60"; "" when the whole file.
	Lines string
	// Shell is the command of a run (and of reads and searches made with
	// a shell command).
	Shell *Shell
	// Pattern is what a search looks for.
	Pattern string
	// URL is what a fetch loads.
	URL string
	// OnOpenFile marks an edit of the file the agent has open (SWE-agent's
	// `edit 10:20`), which the call itself does not name.
	OnOpenFile bool
	// Text is new code the call writes (an edit's replacement, a written
	// file's content), read for declarations and imports.
	Text string
}

// callArgs are the argument keys of the supported agents' tools.
type callArgs struct {
	Path         string          `json:"path"`
	FilePath     string          `json:"file_path"`
	NotebookPath string          `json:"notebook_path"`
	Filename     string          `json:"filename"`
	Command      json.RawMessage `json:"command"` // a string, or an argv array (Codex shell)
	Cmd          string          `json:"cmd"`
	NewString    string          `json:"new_string"`
	NewText      string          `json:"newText"`
	NewStr       string          `json:"new_str"`
	Content      string          `json:"content"`
	FileText     string          `json:"file_text"`
	Offset       json.Number     `json:"offset"`
	Limit        json.Number     `json:"limit"`
	LineNumber   json.Number     `json:"line_number"`
	ViewRange    []int           `json:"view_range"`
	Pattern      string          `json:"pattern"`
	Query        string          `json:"query"`
	URL          string          `json:"url"`
	Edits        []struct {
		NewString string `json:"new_string"`
	} `json:"edits"`
	Input string `json:"input"` // Codex's custom apply_patch
}

// path returns the file the arguments name.
func (a *callArgs) path() string {
	for _, p := range []string{a.FilePath, a.Path, a.NotebookPath, a.Filename} {
		if p != "" {
			return p
		}
	}
	return ""
}

// command returns a shell command line from "command" (a string or an
// argv such as ["bash", "-lc", "go test ./..."]) or "cmd".
func (a *callArgs) command() string {
	if a.Cmd != "" {
		return a.Cmd
	}
	if len(a.Command) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(a.Command, &s) == nil {
		return s
	}
	var argv []string
	if json.Unmarshal(a.Command, &argv) == nil && len(argv) > 0 {
		if len(argv) >= 3 && (argv[1] == "-lc" || argv[1] == "-c") {
			return argv[2]
		}
		return strings.Join(argv, " ")
	}
	return ""
}

var patchHeader = regexp.MustCompile(`\*\*\* (Update|Add|Delete) File: ([^\n\\"]+)`)

// ReadCall reads a tool call block with the classifier's idea of its
// tool. Calls a memory has nothing to say about come back as VerbOther.
func ReadCall(b *session.Block, cls *cwl.Classifier) Call {
	c := Call{Tool: b.ToolName, Verb: VerbOther}
	var a callArgs
	if len(b.Arguments) > 0 && b.Arguments[0] == '{' {
		d := json.NewDecoder(strings.NewReader(string(b.Arguments)))
		d.UseNumber()
		_ = d.Decode(&a) // unreadable arguments leave a call with only its tool
	}
	p := strings.TrimPrefix(strings.TrimSpace(a.path()), "./")
	if p == "" && cls.Class(b.ToolName) != cwl.ClassShell {
		if c, ok := commandCall(b.ToolName, a.command(), cls); ok {
			return c
		}
	}
	// OpenHands' editor is one tool with a sub-command.
	if sub := a.command(); b.ToolName == "str_replace_editor" || b.ToolName == "file_editor" {
		switch sub {
		case "view":
			c.Verb, c.Paths, c.Lines = VerbRead, nonEmpty(p), spanOf(a)
		case "create":
			c.Verb, c.Paths, c.Text = VerbCreate, nonEmpty(p), a.FileText
		default:
			c.Verb, c.Paths, c.Text = VerbEdit, nonEmpty(p), a.NewStr
		}
		return c
	}
	switch cls.Class(b.ToolName) {
	case cwl.ClassRead:
		if a.URL != "" {
			c.Verb, c.URL = VerbFetch, a.URL
			return c
		}
		if p != "" {
			c.Verb, c.Paths, c.Lines = VerbRead, []string{p}, spanOf(a)
		}
	case cwl.ClassSearch:
		c.Verb, c.Pattern = VerbSearch, firstOf(a.Pattern, a.Query)
		switch {
		case c.Pattern == "" && p != "":
			c.Pattern = p
		case looksLikeFile(p):
			c.Paths = []string{p} // the one file searched
		}
	case cwl.ClassEdit:
		editCall(&c, &a, p, b.Arguments)
	case cwl.ClassShell:
		shellCall(&c, a.command())
	default:
		if a.URL != "" {
			c.Verb, c.URL = VerbFetch, a.URL
		}
	}
	return c
}

// editCall reads the arguments a of an edit tool's call on path p (""
// when they name none: a patch names its files).
func editCall(c *Call, a *callArgs, p string, raw json.RawMessage) {
	c.Verb, c.Text = VerbEdit, firstOf(a.NewString, a.NewText, a.NewStr)
	for _, e := range a.Edits {
		c.Text += e.NewString + "\n"
	}
	if a.Content != "" || a.FileText != "" {
		c.Verb, c.Text = VerbCreate, firstOf(a.Content, a.FileText)
	}
	if p != "" {
		c.Paths = []string{p}
		return
	}
	patch := a.Input
	if patch == "" {
		patch = string(raw)
	}
	c.Verb, c.Text = VerbEdit, patch
	for _, m := range patchHeader.FindAllStringSubmatch(patch, -1) {
		c.Paths = append(c.Paths, strings.TrimPrefix(strings.TrimSpace(m[2]), "./"))
		if m[1] == "Add" && len(c.Paths) == 1 {
			c.Verb = VerbCreate
		}
	}
}

// shellCall reads a shell tool's command line: a write, a read, a search
// or a run.
func shellCall(c *Call, line string) {
	if line == "" {
		return
	}
	sh := ReadShell(line)
	c.Shell = &sh
	switch {
	case len(sh.Writes) > 0:
		c.Verb, c.Paths, c.Text = VerbCreate, sh.Writes, sh.Body
	case len(sh.Reads) > 0 && !sh.Test:
		c.Verb, c.Paths = VerbRead, sh.Reads
	case sh.Pattern != "":
		c.Verb, c.Pattern, c.Paths = VerbSearch, sh.Pattern, sh.Names
	default:
		c.Verb, c.Paths = VerbRun, sh.Names
	}
}

// commandCall reads a tool whose arguments are one command line naming
// the tool and its operands, as SWE-agent writes them: {"command": "open
// src/x.py 120"}, {"command": "find_file setup.py"}, {"command": "edit
// 10:20\n..."}.
func commandCall(tool, line string, cls *cwl.Classifier) (Call, bool) {
	head, body, _ := strings.Cut(line, "\n")
	w := nonFlags(head)
	if len(w) < 1 || w[0] != tool {
		return Call{}, false
	}
	args := w[1:]
	c := Call{Tool: tool, Verb: VerbOther}
	switch cls.Class(tool) {
	case cwl.ClassRead:
		if len(args) > 0 {
			c.Verb, c.Paths = VerbRead, []string{strings.TrimPrefix(args[0], "./")}
			if len(args) > 1 && isNumber(args[1]) {
				c.Lines = "from line " + args[1]
			}
		}
	case cwl.ClassSearch:
		if len(args) > 0 {
			c.Verb, c.Pattern = VerbSearch, args[0]
		}
	case cwl.ClassEdit:
		switch {
		case tool == "create" && len(args) > 0:
			c.Verb, c.Paths = VerbCreate, []string{strings.TrimPrefix(args[0], "./")}
		default:
			c.Verb, c.OnOpenFile, c.Text = VerbEdit, true, body
		}
	default:
		return Call{}, false
	}
	return c, true
}

// spanOf renders the line span a read's arguments ask for.
func spanOf(a callArgs) string {
	if len(a.ViewRange) == 2 {
		return lines(a.ViewRange[0], a.ViewRange[1])
	}
	off, _ := strconv.Atoi(a.Offset.String())
	lim, _ := strconv.Atoi(a.Limit.String())
	if n, err := strconv.Atoi(a.LineNumber.String()); err == nil && off == 0 {
		off = n
	}
	switch {
	case off > 0 && lim > 0:
		return lines(off, off+lim-1)
	case lim > 0:
		return lines(1, lim)
	case off > 0:
		return "from line " + strconv.Itoa(off)
	}
	return ""
}

func lines(from, to int) string {
	if to < from {
		return "from line " + strconv.Itoa(from)
	}
	return "lines " + strconv.Itoa(from) + "–" + strconv.Itoa(to)
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func nonEmpty(p string) []string {
	if p == "" {
		return nil
	}
	return []string{p}
}
