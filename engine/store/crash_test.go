package store

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The crash tests re-run this test binary as a child that writes to a
// workspace in a loop, kill it with SIGKILL at a random moment, and check
// the workspace the child left behind.

const (
	crashEnvMode  = "CTXSCOPE_CRASH_MODE" // "import" or "annotate"
	crashEnvDir   = "CTXSCOPE_CRASH_DIR"
	crashEnvScope = "CTXSCOPE_CRASH_SCOPE"
	bigSession    = "sessions/pi/pi-cwl__before-compaction.jsonl"
)

// TestCrashChild is the child's body; it does nothing in a normal run.
func TestCrashChild(t *testing.T) {
	mode, dir := os.Getenv(crashEnvMode), os.Getenv(crashEnvDir)
	if mode == "" {
		t.Skip("runs only as the crash tests' child process")
	}
	s, err := Open(filepath.Join(dir, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	src, _ := os.ReadFile(filepath.Join(sharedData, bigSession))
	for i := 0; ; i++ {
		switch mode {
		case "import":
			// Distinct content each time (trailing blank lines change the
			// hash, not the session), so that every import does real work.
			p := filepath.Join(dir, fmt.Sprintf("copy-%d-%d.jsonl", os.Getpid(), i))
			os.WriteFile(p, append(append([]byte{}, src...), bytes.Repeat([]byte("\n"), i+1)...), 0o644)
			res, err := s.ImportFile(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Printf("imported %s\n", res.Sessions[0].Key)
		case "annotate":
			_, err := s.PutAnnotation(ctx, Annotation{Scope: os.Getenv(crashEnvScope), Question: "q", Item: strconv.Itoa(i), Annotator: "child", Notes: strings.Repeat("n", i%500)})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Printf("annotated %d\n", i)
		}
	}
}

// runAndKill starts the child, kills it after a random delay and returns
// the lines it printed: the writes it saw committed.
func runAndKill(t *testing.T, dir, mode, scope string, rng *rand.Rand) []string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnvMode+"="+mode, crashEnvDir+"="+dir, crashEnvScope+"="+scope)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan []string)
	go func() {
		var ls []string
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			ls = append(ls, sc.Text())
		}
		lines <- ls
	}()
	time.Sleep(time.Duration(100+rng.IntN(1400)) * time.Millisecond)
	cmd.Process.Signal(syscall.SIGKILL)
	got := <-lines
	if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("child was not killed (%v); output %q", err, got)
	}
	return got
}

func checkIntegrity(t *testing.T, s *Store) {
	t.Helper()
	if v, err := s.IntegrityCheck(); err != nil || v != "ok" {
		t.Fatalf("integrity_check: %q %v", v, err)
	}
}

func TestCrashDuringImport(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	s, err := Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	earlier := map[string][]byte{}
	for _, name := range []string{"agent-sessions__pi-v3-small.jsonl", "pi-cwl__large-session.jsonl"} {
		key := mustImport(t, s, filepath.Join(sharedData, "sessions/pi", name)).Sessions[0].Key
		ss, _ := s.Load(key)
		earlier[key] = sessionJSON(t, ss)
	}
	bigEntries := mustImport(t, s, filepath.Join(sharedData, bigSession)).Sessions[0].Entries
	s.Close()
	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	committed := map[string]bool{}
	for run := 0; run < 5; run++ {
		for _, l := range runAndKill(t, dir, "import", "", rng) {
			committed[strings.TrimPrefix(l, "imported ")] = true
		}
		s, err := Open(ws)
		if err != nil {
			t.Fatalf("run %d: reopen: %v", run, err)
		}
		checkIntegrity(t, s)
		for key, want := range earlier {
			ss, err := s.Load(key)
			if err != nil || !bytes.Equal(sessionJSON(t, ss), want) {
				t.Fatalf("run %d: earlier session %s damaged: %v", run, key, err)
			}
		}
		list, err := s.Sessions(context.Background(), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		found := map[string]bool{}
		for _, si := range list {
			found[si.Key] = true
			if earlier[si.Key] == nil && si.Entries != bigEntries {
				t.Fatalf("run %d: session %s is half imported: %d of %d entries", run, si.Key, si.Entries, bigEntries)
			}
		}
		for key := range committed {
			if !found[key] {
				t.Fatalf("run %d: committed import %s is missing", run, key)
			}
		}
		t.Logf("run %d: %d sessions, %d imports reported committed", run, len(list), len(committed))
		s.Close()
	}
}

func TestCrashDuringAnnotations(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(2, uint64(time.Now().UnixNano())))
	for run := 0; run < 4; run++ {
		scope := "crash-" + strconv.Itoa(run)
		printed := runAndKill(t, dir, "annotate", scope, rng)
		s, err := Open(filepath.Join(dir, "ws"))
		if err != nil {
			t.Fatalf("run %d: reopen: %v", run, err)
		}
		checkIntegrity(t, s)
		as, err := s.Annotations(context.Background(), scope)
		if err != nil {
			t.Fatal(err)
		}
		// The child numbers its annotations 0, 1, 2...: the stored ones must
		// be exactly a prefix that holds every one it reported, plus at
		// most the one in flight, each whole.
		if n := len(as); n != len(printed) && n != len(printed)+1 {
			t.Fatalf("run %d: %d annotations stored, %d reported committed", run, n, len(printed))
		}
		for i, a := range as {
			if a.Item != strconv.Itoa(i) || len(a.Notes) != i%500 || a.Annotator != "child" {
				t.Fatalf("run %d: annotation %d is %+v", run, i, a)
			}
		}
		t.Logf("run %d: %d annotations stored, %d reported by the child", run, len(as), len(printed))
		s.Close()
	}
}
