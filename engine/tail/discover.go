package tail

import (
	"os"
	"path/filepath"
)

// KnownDirs are the directories, relative to a home directory, where the
// supported agents write their sessions: Claude Code's projects, Codex's
// rollouts, and pi's sessions (the pi-cwl fork writes under
// ~/.claude/agent).
var KnownDirs = []string{
	".claude/projects",
	".codex/sessions",
	".pi/agent/sessions",
	".claude/agent/sessions",
}

// Discover returns the KnownDirs that exist under home, and nothing else:
// it lists no directory and reads no file. It returns nil for an empty
// home.
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
	return out
}
