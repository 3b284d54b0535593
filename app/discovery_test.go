package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const claudeDir = "../testdata/shared/sessions/claude-code/"

// eventRecorder is a platform that passes every event on a channel.
type eventRecorder struct {
	noPlatform
	events chan recorded
}

type recorded struct {
	name string
	data any
}

func (r *eventRecorder) Emit(event string, data any) { r.events <- recorded{event, data} }

// waitFor returns the first event named name that ok accepts, failing
// the test after 10 s.
func (r *eventRecorder) waitFor(t *testing.T, name string, ok func(any) bool) any {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev := <-r.events:
			if ev.name == name && ok(ev.data) {
				return ev.data
			}
		case <-deadline:
			t.Fatalf("no %s event within 10 s", name)
			return nil
		}
	}
}

// realLines returns the lines of a shared Claude Code session.
func realLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(claudeDir + name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(strings.TrimSuffix(string(data), "\n")+"\n", "\n")
}

func TestDiscoveryImportsTheAgentsSessions(t *testing.T) {
	home, workspace := t.TempDir(), t.TempDir()
	project := filepath.Join(home, ".claude", "projects", "-work-demo")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	// A directory outside the known ones, which must never be read.
	if err := os.MkdirAll(filepath.Join(home, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	first := realLines(t, "claude-code-viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl")
	if err := os.WriteFile(filepath.Join(project, "1af7fc5e.jsonl"), []byte(strings.Join(first, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "notes", "elsewhere.jsonl"), []byte(strings.Join(first, "")), 0o644); err != nil {
		t.Fatal(err)
	}

	a := newApp(t, Options{Workspace: workspace, Home: home})
	rec := &eventRecorder{events: make(chan recorded, 1024)}
	a.SetPlatform(rec)
	d, err := a.live.Discovery(context.Background())
	if err != nil || d.On || len(d.Dirs) != 1 || d.Dirs[0] != filepath.Join(home, ".claude", "projects") {
		t.Fatalf("before: %+v %v", d, err)
	}
	if d, err = a.live.SetDiscovery(context.Background(), true); err != nil || !d.On {
		t.Fatalf("on: %+v %v", d, err)
	}

	// The session already there is imported.
	got := rec.waitFor(t, EventDiscovered, func(any) bool { return true }).(Discovered)
	if len(got.Keys) != 1 {
		t.Fatalf("discovered %v", got.Keys)
	}
	existing := got.Keys[0]

	// A session that appears later is imported as the agent writes it,
	// and grows with it.
	second := realLines(t, "claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl")
	half := len(second) / 2
	path := filepath.Join(project, "fe5e1c67.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(second[:half], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	got = rec.waitFor(t, EventDiscovered, func(any) bool { return true }).(Discovered)
	if len(got.Keys) != 1 || got.Keys[0] == existing {
		t.Fatalf("discovered %v", got.Keys)
	}
	added := got.Keys[0]
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(strings.Join(second[half:], "")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	rec.waitFor(t, EventAppended, func(v any) bool { return v.(Appended).Key == added })

	list, err := a.sessions.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]bool{}
	for _, s := range list {
		sources[s.Source] = true
		if strings.Contains(s.Source, filepath.Join(home, "notes")) {
			t.Errorf("imported %s, outside the known directories", s.Source)
		}
	}
	if !sources[path] {
		t.Errorf("%s is not in the workspace: %v", path, sources)
	}

	// The choice outlives the app: a new one on the same workspace resumes
	// discovery and picks up what was written while nothing watched.
	if _, err := a.live.SetDiscovery(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	a.live.SetDiscovery(context.Background(), true)
	a.Close()
	third := realLines(t, "claude-code-viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl")
	if err := os.WriteFile(filepath.Join(project, "5c0375b4.jsonl"), []byte(strings.Join(third, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newApp(t, Options{Workspace: workspace, Home: home})
	rec = &eventRecorder{events: make(chan recorded, 1024)}
	b.SetPlatform(rec)
	got = rec.waitFor(t, EventDiscovered, func(any) bool { return true }).(Discovered)
	if len(got.Keys) != 1 || got.Keys[0] == existing || got.Keys[0] == added {
		t.Fatalf("discovered after a restart: %v", got.Keys)
	}
}

func TestDiscoveryOffWatchesNothing(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, ".codex", "sessions")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	a := newApp(t, Options{Home: home})
	rec := &eventRecorder{events: make(chan recorded, 1024)}
	a.SetPlatform(rec)
	if _, err := a.live.SetDiscovery(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	if d, err := a.live.SetDiscovery(context.Background(), false); err != nil || d.On {
		t.Fatalf("off: %+v %v", d, err)
	}
	before, err := a.sessions.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	lines := realLines(t, "claude-code-viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl")
	if err := os.WriteFile(filepath.Join(project, "new.jsonl"), []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	// Longer than the watcher's poll and the coalescing wait together.
	time.Sleep(1500 * time.Millisecond)
	after, err := a.sessions.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Fatalf("discovery off imported %d sessions", len(after)-len(before))
	}
}
