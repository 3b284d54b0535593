package modeltest

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Tool is a tool a request offers: its name and the parameters its schema
// names.
type Tool struct {
	Name   string
	Params map[string]bool
	// Freeform marks a tool that takes text, not JSON arguments (the
	// Responses API's custom tools, such as Codex's apply_patch).
	Freeform bool
	// Namespace is the namespace a tool found by a tool search belongs
	// to (Codex's mcp__<server>), which a call of it names.
	Namespace string
	// Search marks the Responses API's client-side tool search (Codex
	// defers its MCP servers' tools until the model searches for them).
	Search bool
}

// toolNames lists, per kind of action, the names agents give the tool
// that takes it, in the order the server prefers them.
var toolNames = map[Kind][]string{
	Read:     {"Read", "read_file", "read", "view"},
	Bash:     {"Bash", "run_shell_command", "bash", "exec_command", "shell"},
	Edit:     {"Edit", "replace", "edit", "str_replace", "apply_patch"},
	Write:    {"Write", "write_file", "write", "create", "apply_patch"},
	Subagent: {"Task", "Agent", "task", "invoke_agent"},
}

// paramNames lists, per part of an action, the names tools give the
// parameter that takes it.
var paramNames = map[string][]string{
	"path":    {"file_path", "filePath", "absolute_path", "path"},
	"command": {"command", "cmd"},
	"old":     {"old_string", "oldString", "old_str"},
	"new":     {"new_string", "newString", "new_str"},
	"content": {"content", "file_text"},
}

// resolve maps a onto the first tool of its kind among those offered, and
// returns the call, without its id: the tool's name and the arguments its
// schema takes, or a freeform tool's text. A read with no read tool is a
// shell's cat.
func (s Script) resolve(a Action, offered map[string]Tool) (Call, error) {
	if a.Kind == Recall {
		for name, t := range offered {
			if strings.HasSuffix(strings.ToLower(name), "recall") {
				return Call{Name: name, Namespace: t.Namespace, Input: map[string]any{"query": a.Query}}, nil
			}
		}
		if t, ok := offered["tool_search"]; ok && t.Search {
			// Search for it first: the same step comes again with
			// the tools found offered.
			return Call{Name: "tool_search", Search: true, Input: map[string]any{"query": "recall evicted context", "limit": 8}}, nil
		}
	}
	for _, name := range toolNames[a.Kind] {
		t, ok := offered[name]
		switch {
		case !ok:
		case t.Name == "apply_patch":
			return Call{Name: name, Text: s.patch(a), Freeform: t.Freeform, Input: patchArgs(s.patch(a), t)}, nil
		default:
			return Call{Name: name, Input: s.arguments(a, t)}, nil
		}
	}
	if a.Kind == Read {
		return s.resolve(Action{Kind: Bash, Command: "cat " + s.abs(a.Path)}, offered)
	}
	names := make([]string, 0, len(offered))
	for n := range offered {
		names = append(names, n)
	}
	sort.Strings(names)
	return Call{}, fmt.Errorf("modeltest: no %s tool among those offered (%s)", a.Kind, strings.Join(names, ", "))
}

// arguments are a's arguments for tool t, under the parameter names its
// schema uses.
func (s Script) arguments(a Action, t Tool) map[string]any {
	args := map[string]any{}
	put := func(part string, v any) {
		for _, p := range paramNames[part] {
			if t.Params[p] {
				args[p] = v
				return
			}
		}
	}
	switch a.Kind {
	case Read:
		put("path", s.abs(a.Path))
	case Bash:
		if t.Name == "shell" && t.Params["command"] {
			args["command"] = []string{"bash", "-lc", a.Command}
		} else {
			put("command", a.Command)
		}
		if t.Params["description"] {
			args["description"] = "run " + firstWord(a.Command)
		}
	case Edit:
		put("path", s.abs(a.Path))
		put("old", a.Old)
		put("new", a.New)
		if t.Params["instruction"] {
			args["instruction"] = "replace " + a.Old + " with " + a.New
		}
	case Write:
		put("path", s.abs(a.Path))
		put("content", a.Content)
	case Subagent:
		args["prompt"] = a.Prompt
		if t.Params["description"] {
			args["description"] = "a subtask"
		}
		if t.Params["agent_name"] {
			args["agent_name"] = cmpOr(a.AgentType, "general-purpose")
		}
		for _, p := range []string{"subagent_type", "agent_type"} {
			if t.Params[p] {
				args[p] = cmpOr(a.AgentType, "general-purpose")
			}
		}
		if t.Params["name"] {
			args["name"] = "checker"
		}
		if t.Params["run_in_background"] {
			args["run_in_background"] = false // in the foreground: its result is the call's
		}
	}
	return args
}

func cmpOr(s, def string) string {
	if s != "" {
		return s
	}
	return def
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return w
}

// toolOf is the tool of a schema whose parameters are props.
func toolOf(name string, props map[string]json.RawMessage) Tool {
	t := Tool{Name: name, Params: map[string]bool{}}
	for p := range props {
		t.Params[p] = true
	}
	return t
}

// patch is an edit or a write as a patch in the apply_patch format.
func (s Script) patch(a Action) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	switch a.Kind {
	case Write:
		b.WriteString("*** Add File: " + s.abs(a.Path) + "\n")
		for _, l := range strings.Split(strings.TrimSuffix(a.Content, "\n"), "\n") {
			b.WriteString("+" + l + "\n")
		}
	case Edit:
		b.WriteString("*** Update File: " + s.abs(a.Path) + "\n@@\n")
		for _, l := range strings.Split(a.Old, "\n") {
			b.WriteString("-" + l + "\n")
		}
		for _, l := range strings.Split(a.New, "\n") {
			b.WriteString("+" + l + "\n")
		}
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

// patchArgs are the JSON arguments of an apply_patch tool that is a
// function (its patch under "input"), nil for a freeform one.
func patchArgs(patch string, t Tool) map[string]any {
	if t.Freeform {
		return nil
	}
	return map[string]any{"input": patch}
}
