package cli

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ctxscope/engine/memory/embed/embedtest"
)

// TestBinaryAloneBuildsMemory copies the built binary alone into an empty
// folder, with an empty home and no source tree around it, and builds and
// queries a memory there: the word vectors travel inside the binary.
// `make test` builds the binary first and names it in CTXSCOPE_BIN.
func TestBinaryAloneBuildsMemory(t *testing.T) {
	bin := os.Getenv("CTXSCOPE_BIN")
	if bin == "" {
		if os.Getenv(embedtest.RequireEnv) != "" {
			t.Fatal("CTXSCOPE_BIN is not set: make test names the built binary")
		}
		t.Skip("CTXSCOPE_BIN is not set")
	}
	locomo, err := filepath.Abs(locomoPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(locomo); err != nil {
		t.Fatalf("LoCoMo is missing (testdata/shared/locomo): %v", err)
	}
	dir := t.TempDir()
	alone := filepath.Join(dir, "ctxscope")
	copyFile(t, bin, alone)
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(alone, append([]string{"--workspace", filepath.Join(dir, "ws")}, args...)...)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + home, "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "PATH=/usr/bin:/bin"}
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v\n%s%s", args, err, out.String(), errb.String())
		}
		return out.String()
	}
	if out := run("memory", "build", "--locomo", locomo, "--sample", "0"); !strings.Contains(out, "conv-26") {
		t.Errorf("build printed %q", out)
	}
	if out := run("memory", "query", "--memory", "conv-26", "When did Caroline go to the LGBTQ support group?", "--budget", "500"); !strings.Contains(out, "Caroline") {
		t.Errorf("query printed %q", out)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
