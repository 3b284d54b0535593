package cwl

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ToolClass says how recoverable a tool's output is, which decides the
// eviction level that strips its calls and results.
type ToolClass uint8

// Tool classes, from the most to the least recoverable.
const (
	// ClassDurable tools are never stripped individually: edits, writes,
	// plans, subagents and anything unknown. Their calls leave only with
	// their whole episode.
	ClassDurable ToolClass = iota
	// ClassSearch tools produce bulk output that one call regenerates:
	// grep, glob, find, ls (paper level 2).
	ClassSearch
	// ClassRead tools return file contents (paper level 3).
	ClassRead
	// ClassShell tools run commands (paper level 3).
	ClassShell
	// ClassEdit tools change files. Durable for eviction; for inferred
	// episodes they mark action work.
	ClassEdit
	// ClassDelimiter is the CWL delimiter tool itself.
	ClassDelimiter
)

var classNames = map[ToolClass]string{
	ClassDurable: "durable", ClassSearch: "search", ClassRead: "read",
	ClassShell: "shell", ClassEdit: "edit", ClassDelimiter: "delimiter",
}

// String returns the class's name as tables spell it.
func (c ToolClass) String() string { return classNames[c] }

// ParseToolClass reads a class name: durable, search, read, shell, edit or
// delimiter. "bulk" is accepted for search and "intermediate" for read.
func ParseToolClass(s string) (ToolClass, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "bulk":
		return ClassSearch, nil
	case "intermediate":
		return ClassRead, nil
	}
	for c, n := range classNames {
		if n == strings.ToLower(strings.TrimSpace(s)) {
			return c, nil
		}
	}
	return 0, fmt.Errorf("cwl: unknown tool class %q (want durable, search, read, shell, edit or delimiter)", s)
}

// Classifier maps tool names to classes. Lookups are exact first, then
// case-insensitive, then by the part after an MCP "server__" prefix.
// Unknown tools are durable.
type Classifier struct {
	exact map[string]ToolClass
	lower map[string]ToolClass
}

// defaultTools covers pi (and OpenCode, whose tools have pi's names),
// Claude Code, Codex, Gemini CLI, Copilot CLI, OpenHands and SWE-agent.
var defaultTools = map[string]ToolClass{
	// pi (the reference's SEARCH/BASH/READ sets, edit and write).
	"grep": ClassSearch, "glob": ClassSearch, "find": ClassSearch, "ls": ClassSearch,
	"read": ClassRead, "bash": ClassShell, "edit": ClassEdit, "write": ClassEdit,
	// Claude Code.
	"Grep": ClassSearch, "Glob": ClassSearch, "LS": ClassSearch, "WebSearch": ClassSearch,
	"Read": ClassRead, "NotebookRead": ClassRead, "WebFetch": ClassRead,
	"Bash": ClassShell, "BashOutput": ClassShell, "KillShell": ClassShell, "KillBash": ClassShell,
	"Edit": ClassEdit, "MultiEdit": ClassEdit, "Write": ClassEdit, "NotebookEdit": ClassEdit,
	"TodoWrite": ClassDurable, "Task": ClassDurable, "ExitPlanMode": ClassDurable,
	// Codex.
	"shell": ClassShell, "exec_command": ClassShell, "local_shell": ClassShell,
	"container.exec": ClassShell, "write_stdin": ClassShell, "unified_exec": ClassShell,
	"apply_patch": ClassEdit, "update_plan": ClassDurable, "view_image": ClassRead,
	"read_file": ClassRead, "list_dir": ClassSearch, "grep_files": ClassSearch,
	// Gemini CLI.
	"read_many_files": ClassRead, "list_directory": ClassSearch, "search_file_content": ClassSearch,
	"grep_search": ClassSearch, "google_web_search": ClassSearch, "web_fetch": ClassRead,
	"run_shell_command": ClassShell, "replace": ClassEdit, "write_file": ClassEdit,
	"save_memory": ClassDurable, "write_todos": ClassDurable,
	// GitHub Copilot CLI (its bash, edit, create, grep and glob are above).
	"view": ClassRead,
	// OpenHands.
	"execute_bash": ClassShell, "execute_ipython_cell": ClassShell, "browser": ClassRead,
	"web_read": ClassRead, "str_replace_editor": ClassEdit, "edit_file": ClassEdit,
	"think": ClassDurable, "finish": ClassDurable,
	// SWE-agent.
	"find_file": ClassSearch, "search_file": ClassSearch, "search_dir": ClassSearch,
	"open": ClassRead, "goto": ClassRead, "scroll_up": ClassRead, "scroll_down": ClassRead,
	"create": ClassEdit, "str_replace": ClassEdit, "insert": ClassEdit, "submit": ClassDurable,
	// CWL.
	"delimiter": ClassDelimiter,
}

// DefaultClassifier returns the built-in table.
func DefaultClassifier() *Classifier {
	c := &Classifier{exact: map[string]ToolClass{}, lower: map[string]ToolClass{}}
	for name, cl := range defaultTools {
		c.Set(name, cl)
	}
	return c
}

// Set classifies a tool name, replacing any earlier class.
func (c *Classifier) Set(name string, cl ToolClass) {
	c.exact[name] = cl
	c.lower[strings.ToLower(name)] = cl
}

// Class returns the class of a tool name.
func (c *Classifier) Class(name string) ToolClass {
	if cl, ok := c.exact[name]; ok {
		return cl
	}
	if cl, ok := c.lower[strings.ToLower(name)]; ok {
		return cl
	}
	if i := strings.LastIndex(name, "__"); i >= 0 && i+2 < len(name) {
		return c.Class(name[i+2:])
	}
	return ClassDurable
}

// Override applies a JSON object of tool names to class names, such as
// {"rg": "search", "cat": "read"}, on top of the table.
func (c *Classifier) Override(raw []byte) error {
	var m map[string]string
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("cwl: tool table: %w", err)
	}
	for name, s := range m {
		cl, err := ParseToolClass(s)
		if err != nil {
			return fmt.Errorf("cwl: tool table, %q: %w", name, err)
		}
		c.Set(name, cl)
	}
	return nil
}

// Table returns the classifier's table by exact name.
func (c *Classifier) Table() map[string]string {
	out := make(map[string]string, len(c.exact))
	for n, cl := range c.exact {
		out[n] = cl.String()
	}
	return out
}
