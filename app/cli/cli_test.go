package cli

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const piDir = shared + "sessions/pi/"

func TestInspectGolden(t *testing.T) {
	files, err := filepath.Glob(piDir + "*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no pi sessions in %s: %v", piDir, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			code, out, errOut := run(t, "inspect", f, "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, "inspect/"+filepath.Base(f)+".golden", []byte(out))
		})
	}
}

// TestInspectLargeSession checks the figures the foundation issue names.
func TestInspectLargeSession(t *testing.T) {
	code, out, errOut := run(t, "inspect", piDir+"pi-cwl__large-session.jsonl", "--json", "--tokenizer", "estimate")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		ByRole    map[string]int `json:"messagesByRole"`
		ToolCalls int            `json:"toolCalls"`
		ByName    map[string]int `json:"toolCallsByName"`
		Errors    int            `json:"errors"`
		Requests  int            `json:"requests"`
		Tokens    map[string]int `json:"tokens"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.ByRole["assistant"] != 453 || r.ToolCalls != 391 || r.Errors != 0 || r.Requests != 453 {
		t.Fatalf("assistant %d, tool calls %d, errors %d, requests %d", r.ByRole["assistant"], r.ToolCalls, r.Errors, r.Requests)
	}
	want := map[string]int{"bash": 192, "edit": 146, "read": 50, "write": 3}
	for k, v := range want {
		if r.ByName[k] != v {
			t.Errorf("%s calls %d, want %d", k, r.ByName[k], v)
		}
	}
	if r.Tokens["estimate"] != 124661 {
		t.Errorf("estimate %d, want 124661", r.Tokens["estimate"])
	}
}

func TestInspectCompactions(t *testing.T) {
	code, out, _ := run(t, "inspect", piDir+"pi-cwl__before-compaction.jsonl", "--json", "--tokenizer", "estimate")
	var r struct {
		Errors      int `json:"errors"`
		Compactions []struct {
			Line, TokensBefore, NextRequest int
		} `json:"compactions"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
		t.Fatalf("exit %d", code)
	}
	if r.Errors != 0 || len(r.Compactions) != 2 || r.Compactions[0].TokensBefore != 175004 {
		t.Fatalf("errors %d, compactions %+v", r.Errors, r.Compactions)
	}
}

func TestInspectHumanOutput(t *testing.T) {
	code, out, _ := run(t, "inspect", piDir+"agent-sessions__pi-v3-small.jsonl", "--tokenizer", "estimate")
	if code != 0 || !strings.Contains(out, "format              pi (version 3)") || !strings.Contains(out, "compactions         2") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestUsageAndErrors(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"inspect without a file", []string{"inspect"}, 2, "need exactly one PATH"},
		{"inspect a missing file", []string{"inspect", "/nonexistent.jsonl"}, 1, "no such file"},
		{"inspect a bad counter", []string{"inspect", piDir + "agent-sessions__pi-v3-small.jsonl", "--tokenizer", "gpt2"}, 2, "unknown counter"},
		{"inspect an unknown format", []string{"inspect", "cli_test.go"}, 1, "unrecognized session format"},
		{"bad flag", []string{"inspect", "--nope"}, 2, "flag provided but not defined"},
		{"serve on a public address", []string{"--workspace", "WS", "serve", "--addr", "0.0.0.0:0"}, 1, "is not a loopback address"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for i, a := range tc.args {
				if a == "WS" {
					tc.args[i] = t.TempDir() // never the user's workspace
				}
			}
			code, _, stderr := run(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, tc.code, tc.stderr)
			}
		})
	}
}

func TestVersionAndHelp(t *testing.T) {
	if code, out, _ := run(t, "version"); code != 0 || out != "ctxscope test\n" {
		t.Fatalf("version: %d %q", code, out)
	}
	if code, out, _ := run(t, "help"); code != 0 || !strings.Contains(out, "inspect") || !strings.Contains(out, "serve") {
		t.Fatalf("help: %d %q", code, out)
	}
}

func TestParseInterspersedFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	j := fs.Bool("json", false, "")
	n := fs.Int("n", 0, "")
	pos, err := parse(fs, []string{"a", "--json", "-n", "3", "b", "--", "-c"})
	if err != nil || !*j || *n != 3 || strings.Join(pos, ",") != "a,b,-c" {
		t.Fatalf("pos %v json %v n %d err %v", pos, *j, *n, err)
	}
}

func TestDesktopArgs(t *testing.T) {
	tests := []struct {
		args    []string
		file    string
		desktop bool
		ws      string
	}{
		{nil, "", true, ""},
		{[]string{"--workspace", "/tmp/w"}, "", true, "/tmp/w"},
		{[]string{piDir + "agent-sessions__pi-v3-small.jsonl"}, piDir + "agent-sessions__pi-v3-small.jsonl", true, ""},
		{[]string{"inspect", "x"}, "", false, ""},
		{[]string{"version"}, "", false, ""},
		{[]string{"no-such-file.jsonl"}, "", false, ""}, // a typo is a command error, not a window
	}
	for _, tc := range tests {
		env := &Env{}
		file, ok := DesktopArgs(tc.args, env)
		if file != tc.file || ok != tc.desktop || env.Workspace != tc.ws {
			t.Errorf("DesktopArgs(%v) = %q, %v, workspace %q", tc.args, file, ok, env.Workspace)
		}
	}
}

// TestServeBeyondLoopbackRefused checks that serve on an address beyond
// loopback without TLS and user tokens is refused with a message that
// says what it needs, before it opens the workspace.
func TestServeBeyondLoopbackRefused(t *testing.T) {
	ws := t.TempDir()
	code, _, stderr := run(t, "--workspace", ws, "serve", "--addr", "0.0.0.0:8443")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", code, stderr)
	}
	for _, want := range []string{"not a loopback address", "--tls-cert FILE --tls-key FILE", "ctxscope token create NAME"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the refusal does not say %q: %s", want, stderr)
		}
	}
	if entries, _ := os.ReadDir(ws); len(entries) != 0 {
		t.Errorf("the refused serve wrote to the workspace: %v", entries)
	}
	code, _, stderr = run(t, "--workspace", ws, "serve", "--addr", "0.0.0.0:8443", "--tls-cert", "x.pem")
	if code != 2 || !strings.Contains(stderr, "go together") {
		t.Errorf("a certificate without its key: exit %d, %s", code, stderr)
	}
}
