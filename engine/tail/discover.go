package tail

import (
	"os"
	"path/filepath"
)

// KnownDirs are the directories, relative to a home directory, where the
// supported agents write their sessions: Claude Code's projects, Codex's
// rollouts, pi's sessions (the pi-cwl fork writes under ~/.claude/agent),
// Gemini CLI's chats (under tmp/<project hash>/chats) and GitHub Copilot
// CLI's session state (<session id>/events.jsonl).
var KnownDirs = []string{
	".claude/projects",
	".codex/sessions",
	".pi/agent/sessions",
	".claude/agent/sessions",
	".gemini/tmp",
	".copilot/session-state",
}

// KnownFiles are the files, relative to a home directory, that hold many
// sessions at once: OpenCode's database (on Linux; its data folder
// follows XDG_DATA_HOME).
var KnownFiles = []string{
	".local/share/opencode/opencode.db",
}

// Agents names the agent that writes each of KnownDirs and KnownFiles.
var Agents = map[string]string{
	".claude/projects":                  "Claude Code",
	".codex/sessions":                   "Codex",
	".pi/agent/sessions":                "pi",
	".claude/agent/sessions":            "pi (the pi-cwl fork)",
	".gemini/tmp":                       "Gemini CLI",
	".copilot/session-state":            "GitHub Copilot CLI",
	".local/share/opencode/opencode.db": "OpenCode",
}

// Discover returns the KnownDirs and KnownFiles that exist under home, and
// nothing else: it lists no directory and reads no file. It returns nil
// for an empty home.
func Discover(home string) []string {
	if home == "" {
		return nil
	}
	var out []string
	for _, rel := range KnownDirs {
		p := filepath.Join(home, rel)
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			out = append(out, p)
		}
	}
	for _, rel := range KnownFiles {
		p := filepath.Join(home, rel)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}
