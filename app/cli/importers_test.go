package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctxscope/engine/ingest"
)

const corpus = shared + "sessions"

func needCorpus(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Fatalf("shared corpus missing: %v", err)
	}
}

func TestExportCommand(t *testing.T) {
	needCorpus(t)
	out := filepath.Join(t.TempDir(), "out.jsonl")
	code, _, stderr := run(t, "export", filepath.Join(corpus, "openhands"), "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ss, err := ingest.ReadFileAll(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 4 || ss[0].Format != "openhands" {
		t.Errorf("%d sessions read back, first of format %s; want 4 openhands", len(ss), ss[0].Format)
	}
	if code, _, _ := run(t, "export"); code != 2 {
		t.Errorf("export without a path: exit %d, want 2", code)
	}
}

func TestTailOnce(t *testing.T) {
	needCorpus(t)
	code, stdout, stderr := run(t, "tail", "--once", "--json", filepath.Join(corpus, "pi", "agent-sessions__pi-v3-small.jsonl"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 9 { // opened, then one entry per record after the header
		t.Errorf("%d events, want 9:\n%s", len(lines), stdout)
	}
	var first struct {
		Kind    string `json:"kind"`
		Session struct {
			ID string `json:"id"`
		} `json:"session"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first.Kind != "opened" || first.Session.ID == "" {
		t.Errorf("first event %s (%v)", lines[0], err)
	}
	_, text, _ := run(t, "tail", "--once", filepath.Join(corpus, "codex"))
	if !strings.Contains(text, "call exec_command") || !strings.Contains(text, "(encrypted reasoning, 43 bytes)") ||
		strings.Contains(text, "SYNTHETIC_ENCRYPTED") {
		t.Errorf("text output:\n%s", text)
	}
}

func TestInspectManySessions(t *testing.T) {
	needCorpus(t)
	code, stdout, stderr := run(t, "inspect", filepath.Join(corpus, "openai-chat", "tau-bench__gpt-4o-airline.json"), "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []sessionLine
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil || len(rows) != 200 {
		t.Fatalf("%d rows (%v)", len(rows), err)
	}
	calls := 0
	for _, r := range rows {
		calls += r.ToolCalls
	}
	if calls != 1164 {
		t.Errorf("%d tool calls, want 1164", calls)
	}
}

// TestTailFollow runs `ctxscope tail PATH --count 2` while records are
// appended to a file that does not exist when the command starts.
func TestTailFollow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.jsonl")
	done := make(chan string)
	go func() {
		_, out, _ := run(t, "tail", path, "--count", "2")
		done <- out
	}()
	lines := `{"type":"session","version":3,"id":"live","timestamp":"2026-01-01T00:00:00Z"}
{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"first","timestamp":1}}
{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"bash","arguments":{"command":"ls"}}],"timestamp":2}}
`
	// The watcher may start after the file is written: either way the
	// records must be printed once.
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out := <-done
	if !strings.Contains(out, "pi session live") || !strings.Contains(out, "+ 2 user: first") || !strings.Contains(out, "+ 3 assistant: call bash") {
		t.Errorf("output:\n%s", out)
	}
}

func TestOneLineNeutralizesEscapes(t *testing.T) {
	got := oneLine("red \x1b[31mtext\x1b[0m\nnext line\tend", 80)
	if strings.ContainsRune(got, 0x1b) || strings.Contains(got, "\n") || got != "red \uFFFD[31mtext\uFFFD[0m next line end" {
		t.Errorf("oneLine = %q", got)
	}
}
