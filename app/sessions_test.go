package app

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"ctxscope/engine/debug"
)

const piDir = "../testdata/shared/sessions/pi/"

// newApp opens an app on a new workspace in a temporary directory.
func newApp(t testing.TB, opts Options) *App {
	t.Helper()
	if opts.Workspace == "" {
		opts.Workspace = t.TempDir()
	}
	if opts.Home == "" {
		opts.Home = t.TempDir() // never the home of whoever runs the tests
	}
	opts.Log = io.Discard
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

func TestNewWorkspaceGetsTheDemoOnce(t *testing.T) {
	dir := t.TempDir()
	a := newApp(t, Options{Workspace: dir})
	info, err := a.sessions.Initial(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !info.Demo || info.Requests != 32 || info.Errors != 0 || info.Format != "pi" {
		t.Fatalf("demo: %+v", info)
	}
	v, err := a.debugger.Replay(context.Background(), info.Key, debug.Params{Counter: "estimate", Policy: "none"})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Before) != 32 || v.Before[31] != 13787 {
		t.Fatalf("demo replay: %d requests, last %v tokens", len(v.Before), v.Before[len(v.Before)-1:])
	}
	// Deleted, it stays deleted: the workspace is seeded once.
	if err := a.sessions.Delete(context.Background(), info.Key); err != nil {
		t.Fatal(err)
	}
	a.Close()
	b := newApp(t, Options{Workspace: dir})
	if list, _ := b.sessions.List(context.Background()); len(list) != 0 {
		t.Fatalf("the demo came back: %+v", list)
	}
	if info, err := b.sessions.Initial(context.Background()); err != nil || info.Key != "" {
		t.Fatalf("empty workspace: %+v %v", info, err)
	}
	if info, err := b.sessions.OpenDemo(context.Background()); err != nil || !info.Demo {
		t.Fatalf("OpenDemo: %+v %v", info, err)
	}
}

func TestInitialOpensTheCommandLineFile(t *testing.T) {
	a := newApp(t, Options{Initial: piDir + "agent-sessions__pi-v3-small.jsonl"})
	info, err := a.sessions.Initial(context.Background())
	if err != nil || info.Demo || info.Compactions != 2 || info.Key == "" {
		t.Fatalf("%+v, %v", info, err)
	}
}

// TestInitialFileIsReadAgainOnlyWhenItChanged opens the command line's
// file by its key while it is as imported, and imports it again once it
// grew or its session was deleted.
func TestInitialFileIsReadAgainOnlyWhenItChanged(t *testing.T) {
	raw, err := os.ReadFile(piDir + "pi-cwl__before-compaction.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	path := filepath.Join(t.TempDir(), "growing.jsonl")
	half := strings.Join(lines[:len(lines)/2], "")
	if err := os.WriteFile(path, []byte(half), 0o644); err != nil {
		t.Fatal(err)
	}
	a := newApp(t, Options{Initial: path})
	first, err := a.sessions.Initial(context.Background())
	if err != nil || first.Requests == 0 {
		t.Fatalf("%+v, %v", first, err)
	}
	if key := a.sessions.initial.unchangedKey(); key != first.Key {
		t.Fatalf("unchanged file: key %q, want %q", key, first.Key)
	}
	again, err := a.sessions.Initial(context.Background())
	if err != nil || again.Key != first.Key || again.Requests != first.Requests {
		t.Fatalf("again: %+v, %v", again, err)
	}
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if key := a.sessions.initial.unchangedKey(); key != "" {
		t.Fatalf("the file grew, yet it is taken as unchanged (%q)", key)
	}
	grown, err := a.sessions.Initial(context.Background())
	if err != nil || grown.Key != first.Key || grown.Requests != 484 {
		t.Fatalf("grown: %d requests (%v), want 484", grown.Requests, err)
	}
	if err := a.sessions.Delete(context.Background(), grown.Key); err != nil {
		t.Fatal(err)
	}
	back, err := a.sessions.Initial(context.Background())
	if err != nil || back.Requests != 484 {
		t.Fatalf("after a delete: %+v, %v", back, err)
	}
}

func TestOpenPathErrors(t *testing.T) {
	a := newApp(t, Options{})
	if _, err := a.sessions.OpenPath(context.Background(), ""); err == nil {
		t.Error("empty path accepted")
	}
	if _, err := a.sessions.OpenPath(context.Background(), "/nonexistent/x.jsonl"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := a.sessions.Open(context.Background(), "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown key: %v", err)
	}
	info, _ := a.sessions.OpenDemo(context.Background())
	if _, err := a.debugger.Replay(context.Background(), info.Key, debug.Params{Counter: "gpt2"}); err == nil {
		t.Error("unknown counter accepted")
	}
	if _, err := a.sessions.OpenDialog(context.Background()); !errors.Is(err, ErrNoDialog) {
		t.Errorf("dialog without a platform: %v", err)
	}
}

func TestUploadIsStoredAndIdempotent(t *testing.T) {
	a := newApp(t, Options{})
	data, err := os.ReadFile(piDir + "agent-sessions__pi-v3-small.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	up, err := a.Upload(context.Background(), bytes.NewReader(data), "../../etc/small.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	again, err := a.Upload(context.Background(), bytes.NewReader(data), "small.jsonl")
	if err != nil || again.Key != up.Key {
		t.Fatalf("same content gave keys %s and %s (%v)", up.Key, again.Key, err)
	}
	if !strings.HasPrefix(up.Source, a.ws.Store.Dir()) || !strings.HasSuffix(up.Source, "-small.jsonl") {
		t.Fatalf("upload stored at %s", up.Source)
	}
	list, err := a.sessions.List(context.Background())
	if err != nil || len(list) != 2 { // the demo and the upload
		t.Fatalf("list %+v %v", list, err)
	}
}

func TestRejectedUploadLeavesNothing(t *testing.T) {
	a := newApp(t, Options{})
	uploads := filepath.Join(a.ws.Store.Dir(), "uploads")
	if _, err := a.Upload(context.Background(), strings.NewReader("this is not a session\n"), "notes.txt"); err == nil {
		t.Fatal("a text file imported as a session")
	}
	if _, err := a.Upload(context.Background(), iotest.ErrReader(errors.New("connection reset")), "cut.jsonl"); err == nil {
		t.Fatal("a failed transfer imported")
	}
	if _, err := a.Upload(context.Background(), nil, "nothing.jsonl"); err == nil {
		t.Fatal("a nil reader imported")
	}
	left, _ := os.ReadDir(uploads)
	if len(left) != 0 {
		t.Fatalf("rejected uploads left %d file(s) behind: %v", len(left), left)
	}
	if fi, err := os.Stat(uploads); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("uploads directory %v, %v: want mode 0700", fi.Mode(), err)
	}
}

func TestImportDirectorySkipsNonSessions(t *testing.T) {
	a := newApp(t, Options{})
	keys, err := a.sessions.Import(context.Background(), []string{piDir})
	if err != nil || len(keys) != 4 {
		t.Fatalf("keys %v, err %v", keys, err)
	}
}

func TestRenderedLogsOnlySafeWords(t *testing.T) {
	var log bytes.Buffer
	a, err := New(Options{Workspace: t.TempDir(), Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	log.Reset()
	a.ui.Rendered(context.Background(), "timeline\nctxscope: forged", 3)
	if got := log.String(); got != "ctxscope: rendered view=timelinectxscopeforged requests=3\n" {
		t.Fatalf("log %q", got)
	}
}

// TestIndexingWaitsForAQuietMoment keeps calling a bound method after an
// import (any, or UI.AtWork, which the page calls while a scrub makes no
// other call) and checks that the background sync starts only once the
// calls stop, and then does run.
func TestIndexingWaitsForAQuietMoment(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func(a *App) error
	}{
		{"Sessions.List", func(a *App) error { _, err := a.sessions.List(context.Background()); return err }},
		{"UI.AtWork", func(a *App) error { a.ui.AtWork(context.Background()); return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newApp(t, Options{})
			docs := func() uint64 {
				n, err := a.ws.Index.DocCount()
				if err != nil {
					t.Fatal(err)
				}
				return n
			}
			for end := time.Now().Add(20 * time.Second); docs() == 0; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(end) {
					t.Fatal("the demo session was never indexed")
				}
			}
			base := docs()
			if _, err := a.sessions.OpenPath(context.Background(), piDir+"pi-cwl__before-compaction.jsonl"); err != nil {
				t.Fatal(err)
			}
			for end := time.Now().Add(3 * quietBeforeIndexing); time.Now().Before(end); time.Sleep(quietBeforeIndexing / 8) {
				if err := tc.call(a); err != nil {
					t.Fatal(err)
				}
				if docs() != base {
					t.Fatal("the index synced while the frontend was calling")
				}
			}
			for end := time.Now().Add(20 * time.Second); docs() == base; time.Sleep(50 * time.Millisecond) {
				if time.Now().After(end) {
					t.Fatal("the index did not sync once the calls stopped")
				}
			}
		})
	}
}
