package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ctxscope/app/graphs"
	"ctxscope/engine/debug"
)

const claudeSession = "../testdata/shared/sessions/claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"

func TestDebuggerServices(t *testing.T) {
	a := newApp(t, Options{})
	info, err := a.sessions.OpenPath(context.Background(), claudeSession)
	if err != nil {
		t.Fatal(err)
	}
	if info.Peak <= 0 || info.Tokens < int64(info.Peak) {
		t.Errorf("stats: peak %d, total %d", info.Peak, info.Tokens)
	}
	d := a.debugger
	threads, err := d.Threads(context.Background(), info.Key)
	if err != nil || len(threads) != 6 {
		t.Fatalf("threads: %v %v", threads, err)
	}
	p := debug.Params{Thread: 5, Counter: "estimate", Episodes: "inferred", Policy: "paper", Budget: 8000}
	tl, err := d.Replay(context.Background(), info.Key, p)
	if err != nil || len(tl.After) != 53 || len(tl.Evictions) == 0 {
		t.Fatalf("replay: %v evictions of %d requests, %v", len(tl.Evictions), len(tl.After), err)
	}
	// A step is the part of the replay the budget changes, defaults
	// resolved as Replay resolves them.
	for _, q := range []debug.Params{p, {Thread: 5, Counter: "estimate", Policy: "paper"}} {
		full, err := d.Replay(context.Background(), info.Key, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, split := range []bool{true, false} {
			st, err := d.ReplayStep(context.Background(), info.Key, q, split)
			if err != nil {
				t.Fatal(err)
			}
			if st.Requests != len(full.After) || st.Budget != full.Budget || !slices.Equal(st.After, full.After) || len(st.Evictions.K) != len(full.Evictions) {
				t.Fatalf("step %+v: %d requests at τ=%d, the replay %d at τ=%d", q, st.Requests, st.Budget, len(full.After), full.Budget)
			}
			if st.Split != split || (len(st.Cats) == len(full.Cats)) != split {
				t.Fatalf("step %+v asked split=%v: split %v with %d of %d category columns", q, split, st.Split, len(st.Cats), len(full.Cats))
			}
		}
	}
	k := tl.Evictions[0].Request
	c, err := d.Context(context.Background(), info.Key, p, k)
	if err != nil || c.Tokens != tl.After[k] {
		t.Fatalf("context: %v", err)
	}
	// A block cut in the view comes whole from Block.
	found := false
	for _, it := range c.Items {
		for b, bl := range it.Blocks {
			if !bl.Truncated {
				continue
			}
			whole, err := d.Block(context.Background(), info.Key, p, k, it.I, b)
			if err != nil || len(whole) != bl.Size || !strings.HasPrefix(whole, bl.Text) {
				t.Fatalf("block %d/%d: %d bytes, want %d: %v", it.I, b, len(whole), bl.Size, err)
			}
			found = true
		}
	}
	if !found {
		t.Error("no block was cut: the test does not exercise Block")
	}
	g, err := d.Graph(context.Background(), info.Key, p, k)
	if err != nil || len(g.Nodes) == 0 {
		t.Fatalf("graph: %v", err)
	}
	states := map[string]int{}
	for _, n := range g.Nodes {
		states[n.Attrs["state"]]++
	}
	if states[graphs.StateEvicted]+states[graphs.StateStripped] == 0 {
		t.Errorf("no evicted node at an eviction: %v", states)
	}
	curves, err := d.Sweep(context.Background(), info.Key, p, []string{"paper", "pi-cwl"}, 4000, 24000, 4000)
	if err != nil || len(curves) != 2 || len(curves[0].Points) != 6 {
		t.Fatalf("sweep: %v", err)
	}
	if _, err := d.Sweep(context.Background(), info.Key, p, []string{"paper"}, 0, 1_000_000, 1); err == nil {
		t.Error("an oversized sweep was accepted")
	}
	if _, err := d.Replay(context.Background(), info.Key, debug.Params{Thread: 0, Policy: "nope"}); err == nil {
		t.Error("an unknown policy was accepted")
	}
	csv, err := d.ExportReplay(context.Background(), info.Key, p, "csv")
	if err != nil || strings.Count(csv, "\n") != 54 {
		t.Fatalf("export: %d lines, %v", strings.Count(csv, "\n"), err)
	}
	if _, err := d.SaveReplay(context.Background(), info.Key, p, "csv"); err == nil {
		t.Error("saving without a dialog should fail with ErrNoDialog")
	}
}

func TestSearchHitsAreLocated(t *testing.T) {
	a := newApp(t, Options{})
	info, err := a.sessions.OpenPath(context.Background(), claudeSession)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.debugger.Search(context.Background(), "CLAUDE.md", info.Key, 50)
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("search: %v %v", res, err)
	}
	located := 0
	for _, h := range res.Hits {
		if h.Session != info.Key || h.ThreadIndex < 0 {
			t.Fatalf("hit %+v", h)
		}
		if h.Request >= 0 {
			located++
			l, err := a.debugger.Locate(context.Background(), info.Key, h.ThreadIndex, h.EntryIndex)
			if err != nil || l.Request != h.Request || l.Message != h.Message {
				t.Fatalf("Locate %+v, hit %+v: %v", l, h, err)
			}
		}
	}
	if located == 0 {
		t.Error("no hit was located among the requests")
	}
	all, err := a.debugger.Search(context.Background(), "CLAUDE.md", "", 10)
	if err != nil || len(all.Hits) == 0 || all.Hits[0].Request != -1 {
		t.Fatalf("workspace search: %+v %v", all, err)
	}
}

// appendRecorder is a platform that records session:appended events.
type appendRecorder struct {
	noPlatform
	mu     sync.Mutex
	events []any
	seen   chan struct{}
}

func (r *appendRecorder) Emit(event string, data any) {
	if event != EventAppended {
		return
	}
	r.mu.Lock()
	r.events = append(r.events, data)
	r.mu.Unlock()
	select {
	case r.seen <- struct{}{}:
	default:
	}
}

// halfSession writes the first half of the lines of the real 453-request
// pi session to a new file, and returns its path and the other half.
func halfSession(t *testing.T) (path, rest string) {
	t.Helper()
	data, err := os.ReadFile(piDir + "pi-cwl__large-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	half := len(lines) / 2
	path = filepath.Join(t.TempDir(), "live.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:half], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, strings.Join(lines[half:], "")
}

// appendAndWait appends rest to the followed session file at path and
// waits until rec has seen the session grow to requests; it returns how
// long that took from the write.
func appendAndWait(t *testing.T, rec *appendRecorder, path, rest string, requests int) time.Duration {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := f.WriteString(rest); err != nil {
		t.Fatal(err)
	}
	f.Close()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case <-rec.seen:
		case <-deadline:
			t.Fatal("no appended event within 10 s")
		}
		rec.mu.Lock()
		last := rec.events[len(rec.events)-1].(Appended)
		rec.mu.Unlock()
		if last.Requests == requests {
			return time.Since(start)
		}
	}
}

func TestLiveSessionAppends(t *testing.T) {
	a := newApp(t, Options{})
	rec := &appendRecorder{seen: make(chan struct{}, 1)}
	a.SetPlatform(rec)
	path, rest := halfSession(t)
	info, err := a.sessions.OpenPath(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.live.Follow(context.Background(), info.Key); err != nil {
		t.Fatal(err)
	}
	if err := a.sessions.MarkSeen(context.Background(), info.Key, info.Requests); err != nil {
		t.Fatal(err)
	}
	t.Logf("appended event %v after the write", appendAndWait(t, rec, path, rest, 453))
	list, err := a.sessions.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		if s.Key == info.Key && (!s.Live || s.Requests != 453 || s.Seen != info.Requests) {
			t.Fatalf("listed %+v", s)
		}
	}
	a.live.Unfollow(context.Background(), info.Key)
	if len(a.live.Following(context.Background())) != 0 {
		t.Error("still following")
	}
}

// TestPreparedThreadsAreBounded prepares more threads than are kept and
// checks that concurrent first calls share one preparation.
func TestPreparedThreadsAreBounded(t *testing.T) {
	a := newApp(t, Options{})
	info, err := a.sessions.OpenPath(context.Background(), claudeSession)
	if err != nil {
		t.Fatal(err)
	}
	d := a.debugger
	var wg sync.WaitGroup
	got := make([]*preparedReplay, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = d.replay(context.Background(), info.Key, debug.Params{Thread: 2, Counter: "estimate", Episodes: "inferred"})
		}()
	}
	wg.Wait()
	for _, r := range got[1:] {
		if r == nil || r != got[0] {
			t.Fatal("concurrent first calls prepared the thread more than once")
		}
	}
	for th := range 6 {
		for _, mode := range []string{"declared", "inferred"} {
			if _, err := d.replay(context.Background(), info.Key, debug.Params{Thread: th, Counter: "estimate", Episodes: mode}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := len(d.replays.Keys()); n != maxPrepared {
		t.Errorf("%d threads prepared, want the last %d", n, maxPrepared)
	}
	last := false
	for _, k := range d.replays.Keys() {
		last = last || strings.HasSuffix(k, "/5/estimate/inferred")
	}
	if !last {
		t.Error("the thread prepared last was dropped at once")
	}
}

// TestDefaultsShareTheirReplay: a replay asked for with the default
// counter ("") is the replay of the counter it resolved to, which the
// page asks for from then on; it is not prepared again. And a thread
// with no delimiter call resolves "" episodes to inferred without
// preparing a declared replay.
func TestDefaultsShareTheirReplay(t *testing.T) {
	a := newApp(t, Options{})
	info, err := a.sessions.OpenPath(context.Background(), claudeSession)
	if err != nil {
		t.Fatal(err)
	}
	d := a.debugger
	tl, err := d.Replay(context.Background(), info.Key, debug.Params{Thread: 5, Policy: "paper"})
	if err != nil {
		t.Fatal(err)
	}
	if tl.CounterName != debug.CounterCalibrated || tl.Episodes != "inferred" {
		t.Fatalf("the thread reports usage and declares no episode, yet the defaults resolved to %q and %q", tl.CounterName, tl.Episodes)
	}
	for _, k := range d.replays.Keys() {
		if strings.HasSuffix(k, "/declared") {
			t.Errorf("a declared replay was prepared: %s", k)
		}
	}
	resolved := debug.Params{Thread: 5, Counter: tl.CounterName, Episodes: tl.Episodes, Policy: "paper", Budget: tl.Budget}
	asked, ok := d.replays.Held(info.Key + "/" + debug.Params{Thread: 5, Episodes: tl.Episodes}.Key())
	if !ok {
		t.Fatalf("no replay held for the defaults; held: %v", d.replays.Keys())
	}
	if _, err := d.Context(context.Background(), info.Key, resolved, 0); err != nil {
		t.Fatal(err)
	}
	if got, ok := d.replays.Held(info.Key + "/" + resolved.Key()); !ok || got != asked {
		t.Fatalf("the resolved counter's replay is another (%p, held %v) than the defaults' (%p)", got, ok, asked)
	}
}

// TestEpisodeModeIsResolvedOncePerThread checks the session's memo of
// which threads may declare episodes against the walk it saves, for a
// session that declares them (the demo) and one that does not, threads
// out of range included. That the memo works each out once is
// workspace.Derived's test.
func TestEpisodeModeIsResolvedOncePerThread(t *testing.T) {
	a := newApp(t, Options{})
	for _, path := range []string{claudeSession, "demo/demo-fix-pagination.jsonl"} {
		info, err := a.sessions.OpenPath(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		o, err := a.sessions.get(context.Background(), info.Key)
		if err != nil {
			t.Fatal(err)
		}
		declaring := 0
		for i := -1; i <= len(o.Session.Threads); i++ {
			want := debug.DeclaresEpisodes(o.Session, i)
			for range 2 {
				if got := declaresEpisodes(o, i); got != want {
					t.Errorf("%s thread %d: declaresEpisodes %v, the walk says %v", path, i, got, want)
				}
			}
			if want && i >= 0 && i < len(o.Session.Threads) {
				declaring++
			}
		}
		if wantSome := path != claudeSession; (declaring > 0) != wantSome {
			t.Errorf("%s: %d of %d threads declare episodes", path, declaring, len(o.Session.Threads))
		}
	}
}
