package modeltest

import (
	"fmt"
	"strings"
)

// toolForm is how one agent's tool of a kind takes an action: its name and
// the arguments it wants.
type toolForm struct {
	name string
	args func(s Script, a Action) map[string]any
}

// toolForms lists, per kind, the tools agents offer for it, as they name
// them and the arguments they take.
var toolForms = map[Kind][]toolForm{
	Read: {
		{"Read", func(s Script, a Action) map[string]any { return map[string]any{"file_path": s.abs(a.Path)} }},
		{"read_file", func(s Script, a Action) map[string]any { return map[string]any{"absolute_path": s.abs(a.Path)} }},
		{"read", func(s Script, a Action) map[string]any { return map[string]any{"filePath": s.abs(a.Path)} }},
		{"view", func(s Script, a Action) map[string]any { return map[string]any{"path": s.abs(a.Path)} }},
	},
	Bash: {
		{"Bash", func(s Script, a Action) map[string]any {
			return map[string]any{"command": a.Command, "description": "run " + firstWord(a.Command)}
		}},
		{"run_shell_command", func(s Script, a Action) map[string]any { return map[string]any{"command": a.Command} }},
		{"bash", func(s Script, a Action) map[string]any {
			return map[string]any{"command": a.Command, "description": "run " + firstWord(a.Command)}
		}},
		{"exec_command", func(s Script, a Action) map[string]any { return map[string]any{"cmd": a.Command} }},
		{"shell", func(s Script, a Action) map[string]any {
			return map[string]any{"command": []string{"bash", "-lc", a.Command}}
		}},
	},
	Edit: {
		{"Edit", func(s Script, a Action) map[string]any {
			return map[string]any{"file_path": s.abs(a.Path), "old_string": a.Old, "new_string": a.New}
		}},
		{"replace", func(s Script, a Action) map[string]any {
			return map[string]any{"file_path": s.abs(a.Path), "old_string": a.Old, "new_string": a.New}
		}},
		{"edit", func(s Script, a Action) map[string]any {
			return map[string]any{"filePath": s.abs(a.Path), "oldString": a.Old, "newString": a.New}
		}},
		{"str_replace", func(s Script, a Action) map[string]any {
			return map[string]any{"path": s.abs(a.Path), "old_str": a.Old, "new_str": a.New}
		}},
	},
	Write: {
		{"Write", func(s Script, a Action) map[string]any {
			return map[string]any{"file_path": s.abs(a.Path), "content": a.Content}
		}},
		{"write_file", func(s Script, a Action) map[string]any {
			return map[string]any{"file_path": s.abs(a.Path), "content": a.Content}
		}},
		{"write", func(s Script, a Action) map[string]any {
			return map[string]any{"filePath": s.abs(a.Path), "content": a.Content}
		}},
		{"create", func(s Script, a Action) map[string]any {
			return map[string]any{"path": s.abs(a.Path), "file_text": a.Content}
		}},
	},
	Subagent: {
		{"Task", func(s Script, a Action) map[string]any {
			return map[string]any{"description": "a subtask", "prompt": a.Prompt, "subagent_type": "general-purpose"}
		}},
		{"Agent", func(s Script, a Action) map[string]any {
			// In the foreground: its result comes back as the call's.
			return map[string]any{"description": "a subtask", "prompt": a.Prompt, "subagent_type": "general-purpose", "run_in_background": false}
		}},
		{"task", func(s Script, a Action) map[string]any {
			return map[string]any{"description": "a subtask", "prompt": a.Prompt, "subagent_type": "general"}
		}},
	},
}

// resolve maps a onto the first tool of its kind that offered names, and
// returns the tool's name and arguments.
func (s Script) resolve(a Action, offered map[string]bool) (string, map[string]any, error) {
	for _, f := range toolForms[a.Kind] {
		if offered[f.name] {
			return f.name, f.args(s, a), nil
		}
	}
	names := make([]string, 0, len(offered))
	for n := range offered {
		names = append(names, n)
	}
	return "", nil, fmt.Errorf("modeltest: no %s tool among those offered (%s)", a.Kind, strings.Join(names, ", "))
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return w
}
