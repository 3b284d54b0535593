package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

const sharedPi = shared + "sessions/pi"

// runIn executes a command line against a workspace and returns its exit
// code, stdout and stderr.
func runIn(t *testing.T, ws string, args ...string) (int, string, string) {
	t.Helper()
	return run(t, append([]string{"--workspace", ws}, args...)...)
}

func TestWorkspaceCommands(t *testing.T) {
	ws := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(sharedPi, "*.json*"))
	code, out, stderr := runIn(t, ws, append([]string{"import", "--json"}, files...)...)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	var results []struct {
		Action   string `json:"action"`
		Sessions []struct{ Key string }
	}
	if err := json.Unmarshal([]byte(out), &results); err != nil || len(results) != len(files) {
		t.Fatalf("import --json: %v\n%s", err, out)
	}
	code, out, _ = runIn(t, ws, "import", files[0])
	if code != 0 || !strings.HasPrefix(out, "unchanged") {
		t.Fatalf("re-import: exit %d\n%s", code, out)
	}
	code, out, _ = runIn(t, ws, "sessions", "--json")
	var sessions []struct{ Key string }
	if code != 0 || json.Unmarshal([]byte(out), &sessions) != nil || len(sessions) != len(files) {
		t.Fatalf("sessions --json: exit %d\n%s", code, out)
	}
	code, out, _ = runIn(t, ws, "sessions")
	if code != 0 || !strings.Contains(out, "ffae836b-9420-4060-ac13-7745215f90ff") {
		t.Fatalf("sessions: exit %d\n%s", code, out)
	}
	code, out, stderr = runIn(t, ws, "search", `"loadSessionFromEntries"`, "--kind", "tool_call", "--json", "--limit", "3")
	var res struct {
		Total uint64
		Hits  []struct {
			Session, Thread, Entry, Source, Kind string
			Line                                 int
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Total != 10 || len(res.Hits) != 3 {
		t.Fatalf("search --json: exit %d %s\n%s", code, stderr, out)
	}
	h := res.Hits[0]
	if h.Kind != "tool_call" || h.Session == "" || h.Thread != "main" || h.Entry == "" || h.Line == 0 || !strings.HasSuffix(h.Source, "pi-cwl__before-compaction.jsonl") {
		t.Fatalf("hit lacks its location: %+v", h)
	}
	code, out, _ = runIn(t, ws, "search", "tool_execution_start", "--plain", "--session", "d703a1a9-1b7b-4fb1-b512-c9738b1fe617")
	if code != 0 || !strings.Contains(out, "1 hits") || !strings.Contains(out, "»tool_execution_start«") || !strings.Contains(out, "pi-cwl__large-session.jsonl:28") {
		t.Fatalf("search: exit %d\n%s", code, out)
	}
	code, _, stderr = runIn(t, ws, "search", `tool:"bash`)
	if code != 1 || !strings.Contains(stderr, "bad query") || !strings.Contains(stderr, "unterminated quote") {
		t.Fatalf("bad query: exit %d\n%s", code, stderr)
	}
	code, out, _ = runIn(t, ws, "reindex")
	if code != 0 || !strings.Contains(out, "indexed 4 sessions") {
		t.Fatalf("reindex: exit %d\n%s", code, out)
	}
	if code, _, _ := runIn(t, ws, "search"); code != 2 {
		t.Fatalf("search without a query: exit %d, want 2", code)
	}
	code, _, stderr = runIn(t, ws, "import", filepath.Join(ws, "missing.jsonl"))
	if code != 1 || !strings.Contains(stderr, "missing.jsonl") {
		t.Fatalf("import of a missing file: exit %d\n%s", code, stderr)
	}
}
