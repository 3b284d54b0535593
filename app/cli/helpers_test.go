package cli

import (
	"bytes"
	"ctxscope/engine/cwl/vectors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// shared is the real test data next to the repository.
const shared = "../../testdata/shared/"

// run executes a command line and returns its exit code and output.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Run(args, &Env{Stdout: &out, Stderr: &errOut, Version: "test"})
	return code, out.String(), errOut.String()
}

// golden compares got with testdata/<name>, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./app/cli -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the golden file; run go test ./app/cli -update and review the diff", path)
	}
}

// vectorHistory writes the message history of CWL conformance vector id
// to a session file (a JSON array of pi AgentMessages) and returns its
// path.
func vectorHistory(t *testing.T, id string) string {
	t.Helper()
	f, err := vectors.Load(shared + "cwl-vectors/public.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.Vector(id)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), strings.ToLower(id)+".json")
	if err := os.WriteFile(path, v.HistoryJSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
