package realagents

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

// repoRoot is the repository's root, from this file's place in it.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// pinned is an agent CLI of scripts/agents.txt.
type pinned struct {
	name, pkg, version string
	dir                string // where setup installed it
}

// pinnedAgent reads the line of scripts/agents.txt for name and checks
// that setup installed that version. A missing install fails the test:
// `make test` installs it (scripts/setup.sh test).
func pinnedAgent(t *testing.T, name string) pinned {
	t.Helper()
	root := repoRoot(t)
	f, err := os.Open(filepath.Join(root, "scripts", "agents.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 || fields[0] != name {
			continue
		}
		p := pinned{name: fields[0], pkg: fields[1], version: fields[2], dir: filepath.Join(root, ".cache", "agents", name)}
		manifest, err := os.ReadFile(filepath.Join(p.dir, "node_modules", p.pkg, "package.json"))
		if err != nil || !strings.Contains(string(manifest), `"version": "`+p.version+`"`) {
			t.Fatalf("%s@%s is not installed in %s: run scripts/setup.sh test (make test does)", p.pkg, p.version, p.dir)
		}
		return p
	}
	t.Fatalf("scripts/agents.txt names no agent %q", name)
	return pinned{}
}

// sandbox is a fresh home and work directory for one run of an agent,
// owned by the account the agent runs as.
type sandbox struct {
	root, home, work string
	uid, gid         int // the agent's account; -1 for this process's
}

// newSandbox makes a sandbox with the files of project in its work
// directory. As root it belongs to nobody, whom the agents run as (Claude
// Code refuses to skip its permission prompts as root).
func newSandbox(t *testing.T, project map[string]string) *sandbox {
	t.Helper()
	root, err := os.MkdirTemp("", "ctxscope-agent-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// CTXSCOPE_KEEP_AGENT_RUNS keeps each run's home and work
		// directory (the agent's log among them) for a developer to read.
		if os.Getenv("CTXSCOPE_KEEP_AGENT_RUNS") != "" {
			t.Logf("run kept in %s", root)
			return
		}
		os.RemoveAll(root)
	})
	sb := &sandbox{root: root, home: filepath.Join(root, "home"), work: filepath.Join(root, "work"), uid: -1, gid: -1}
	for _, d := range []string{sb.home, sb.work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range project {
		path := filepath.Join(sb.work, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			t.Fatal(err)
		}
		sb.uid, _ = strconv.Atoi(u.Uid)
		sb.gid, _ = strconv.Atoi(u.Gid)
		os.Chmod(root, 0o755)
		filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
			if err == nil {
				os.Lchown(p, sb.uid, sb.gid)
			}
			return err
		})
	}
	return sb
}

// run runs an agent's command line in the sandbox with a clean
// environment (env added to PATH, HOME, LANG, TERM and NO_COLOR), stdin
// from /dev/null and a deadline, as the sandbox's account, and returns
// what it printed.
func (sb *sandbox) run(t *testing.T, limit time.Duration, env []string, argv ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	base := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + sb.home, "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1"}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if sb.uid >= 0 {
		cmd = exec.CommandContext(ctx, "runuser", append([]string{"-u", "nobody", "--", "env", "-i"}, append(append(base, env...), argv...)...)...)
	} else {
		cmd.Env = append(base, env...)
	}
	cmd.Dir = sb.work
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish within %v:\n%.4000s", filepath.Base(argv[0]), limit, out)
	}
	if err != nil {
		t.Fatalf("%s: %v:\n%s", filepath.Base(argv[0]), err, ends(out, 1500, 4000))
	}
	return string(out)
}

// ends is the first head and the last tail bytes of out, with what lies
// between them left out and said so: an agent says why it failed at the
// end of what it prints.
func ends(out []byte, head, tail int) string {
	if len(out) <= head+tail {
		return string(out)
	}
	return fmt.Sprintf("%s\n[… %d bytes left out …]\n%s", out[:head], len(out)-head-tail, out[len(out)-tail:])
}

// checkFixed fails t unless the project's test passes in the work
// directory: the scripted task's edit fixes calc.sh, and an edit the agent
// could not apply leaves it failing even when the agent ends well.
func (sb *sandbox) checkFixed(t *testing.T) {
	t.Helper()
	cmd := exec.Command("sh", "test.sh")
	cmd.Dir = sb.work
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("the project's test fails after the run (the edit did not land): %v: %s", err, out)
	}
}

// writeFile writes a file of the agent's configuration into the sandbox,
// owned by the agent's account.
func (sb *sandbox) writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if sb.uid >= 0 {
		for p := path; strings.HasPrefix(p, sb.root) && p != sb.root; p = filepath.Dir(p) {
			os.Lchown(p, sb.uid, sb.gid)
		}
	}
}

// readLog reads the agent's log, the one file the glob pattern matches, as
// one session of format (with the agent's version in its agent name when
// version is not ""), failing the test otherwise.
func readLog(t *testing.T, pattern string, format session.Format, version string) *session.Session {
	t.Helper()
	logs, _ := filepath.Glob(pattern)
	if len(logs) != 1 {
		t.Fatalf("want one log matching %s, found %v", pattern, logs)
	}
	sessions, failed, err := ingest.ReadPaths(logs)
	if err != nil || len(failed) > 0 || len(sessions) != 1 {
		t.Fatalf("reading %s: %d sessions, failed %v, %v", logs[0], len(sessions), failed, err)
	}
	s := sessions[0]
	if s.Format != format || !strings.Contains(s.Agent, version) {
		t.Errorf("format %s, agent %q; want %s %s", s.Format, s.Agent, format, version)
	}
	return s
}
