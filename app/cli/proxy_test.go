package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"ctxscope/engine/modeltest"
)

// TestProxyCommandRecordsIntoTheWorkspace runs `ctxscope proxy` in a
// process of its own in front of the model server, sends a model call
// through the base URL it prints, and finds the conversation among the
// workspace's sessions; interrupted, the command ends cleanly and leaves
// the proxy off, and a second run without --addr prints the same base
// URL (so that an agent configured once keeps working).
func TestProxyCommandRecordsIntoTheWorkspace(t *testing.T) {
	srv := modeltest.Start(modeltest.Script{Tasks: []modeltest.Task{{Marker: "CLI-PROXY", Final: "Done."}}})
	defer srv.Close()
	ws := t.TempDir()
	start := func(flags ...string) (*exec.Cmd, string) {
		cmd := exec.Command(os.Args[0], append([]string{"--workspace", ws, "proxy", "--upstream", srv.URL}, flags...)...)
		cmd.Env = append(os.Environ(), childEnv+"=1")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		m := regexp.MustCompile(`^ctxscope proxy at (http://127\.0\.0\.1:\d+/p/[0-9a-f]{32})\n$`).FindStringSubmatch(line)
		if err != nil || m == nil {
			cmd.Process.Kill()
			t.Fatalf("proxy said %q (%v)", line, err)
		}
		return cmd, m[1]
	}
	cmd, base := start("--addr", "127.0.0.1:0")
	res, err := http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"CLI-PROXY: hello"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	// The conversation is a session of the workspace once imported.
	found := false
	for deadline := time.Now().Add(20 * time.Second); !found && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		r := runChild(t, time.Minute, "--workspace", ws, "sessions", "--json")
		var list []struct {
			Format string `json:"format"`
			Title  string `json:"title"`
		}
		json.Unmarshal([]byte(r.stdout), &list)
		for _, s := range list {
			found = found || (s.Format == "ctxscope-proxy" && strings.HasPrefix(s.Title, "CLI-PROXY"))
		}
	}
	if !found {
		t.Error("the recorded conversation is not among the workspace's sessions")
	}
	cmd.Process.Signal(syscall.SIGTERM)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("proxy ended with %v", err)
		}
	case <-ctx.Done():
		cmd.Process.Kill()
		t.Fatal("proxy did not end on SIGTERM")
	}
	again, base2 := start()
	defer func() { again.Process.Kill(); again.Wait() }()
	if base2 != base {
		t.Errorf("second run at %s, first at %s", base2, base)
	}
}
