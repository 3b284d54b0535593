package revcache

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// counted returns a builder that counts its calls and builds "key@rev"
// strings, with the value it was given to update after a "+".
func counted(calls *atomic.Int32, v string) Builder[string] {
	return func(_ context.Context, old string, hasOld bool) (string, error) {
		calls.Add(1)
		if hasOld {
			return old + "+" + v, nil
		}
		return v, nil
	}
}

func TestRevisionCacheBuildsOncePerRevision(t *testing.T) {
	c := New[string](4)
	var calls atomic.Int32
	release := make(chan struct{})
	slow := func(ctx context.Context, old string, hasOld bool) (string, error) {
		<-release
		return counted(&calls, "s@1")(ctx, old, hasOld)
	}
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Go(func() {
			v, err := c.Get(context.Background(), "s", 1, slow)
			if err != nil {
				t.Error(err)
			}
			got[i] = v
		})
	}
	time.Sleep(10 * time.Millisecond) // let every call find the build under way
	close(release)
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d builds for one key and revision, want 1", n)
	}
	for _, v := range got {
		if v != "s@1" {
			t.Fatalf("a caller got %q", v)
		}
	}
	if v, ok := c.Peek("s", 1); !ok || v != "s@1" {
		t.Errorf("peek at the built revision: %q %v", v, ok)
	}
	if _, ok := c.Peek("s", 2); ok {
		t.Error("peek at another revision found a value")
	}
}

func TestRevisionCacheNewRevisionBuildsFromTheOld(t *testing.T) {
	c := New[string](4)
	var calls atomic.Int32
	ctx := context.Background()
	steps := []struct {
		rev  int
		want string
	}{
		{1, "a"},
		{1, "a"},     // kept
		{2, "a+b"},   // built from revision 1
		{3, "a+b+c"}, // and so on
		{3, "a+b+c"},
	}
	names := map[int]string{1: "a", 2: "b", 3: "c"}
	for _, st := range steps {
		v, err := c.Get(ctx, "s", st.rev, counted(&calls, names[st.rev]))
		if err != nil || v != st.want {
			t.Fatalf("revision %d: %q, %v; want %q", st.rev, v, err, st.want)
		}
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("%d builds, want one per revision (3)", n)
	}
	if ks := c.Keys(); len(ks) != 1 {
		t.Errorf("keys %v: a newer revision should replace the older", ks)
	}
}

func TestRevisionCacheForgetsAFailedBuild(t *testing.T) {
	c := New[string](4)
	boom := errors.New("boom")
	fail := func(context.Context, string, bool) (string, error) { return "", boom }
	if _, err := c.Get(context.Background(), "s", 1, fail); !errors.Is(err, boom) {
		t.Fatalf("got %v, want the build's error", err)
	}
	var calls atomic.Int32
	v, err := c.Get(context.Background(), "s", 1, counted(&calls, "ok"))
	if err != nil || v != "ok" || calls.Load() != 1 {
		t.Fatalf("after a failed build: %q, %v, %d builds; want a new build", v, err, calls.Load())
	}
}

func TestRevisionCacheCancelsAnAbandonedBuild(t *testing.T) {
	c := New[string](4)
	cancelled := make(chan struct{})
	started := make(chan struct{})
	build := func(ctx context.Context, _ string, _ bool) (string, error) {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return "", ctx.Err()
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	if _, err := c.Get(ctx, "s", 1, build); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the caller's cancellation", err)
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the build nobody waits for was not cancelled")
	}
	if ks := c.Keys(); len(ks) != 0 {
		t.Errorf("the abandoned build is still kept: %v", ks)
	}
}

func TestRevisionCacheEvictsAndForgets(t *testing.T) {
	c := New[string](3)
	var calls atomic.Int32
	for _, k := range []string{"a/1", "a/2", "b/1", "ab/1"} {
		if _, err := c.Get(context.Background(), k, 1, counted(&calls, k)); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := c.Held("a/1"); ok {
		t.Error("the least recently used key is still held beyond the bound")
	}
	c.Forget("a", "/")
	for _, tc := range []struct {
		key  string
		held bool
	}{{"a/2", false}, {"b/1", true}, {"ab/1", true}} {
		if _, ok := c.Held(tc.key); ok != tc.held {
			t.Errorf("%s held %v after forgetting a, want %v", tc.key, ok, tc.held)
		}
	}
}

// TestRevisionCacheAliases: an alias is the value of its key at its
// revision, without a build; it does not replace a value of that
// revision, and a newer revision builds.
func TestRevisionCacheAliases(t *testing.T) {
	c := New[string](4)
	var calls atomic.Int32
	c.Alias("s/resolved", 1, "prepared for s/")
	if v, err := c.Get(context.Background(), "s/resolved", 1, counted(&calls, "built")); err != nil || v != "prepared for s/" || calls.Load() != 0 {
		t.Fatalf("alias: %q, %v, %d builds", v, err, calls.Load())
	}
	c.Alias("s/resolved", 1, "another")
	if v, _ := c.Held("s/resolved"); v != "prepared for s/" {
		t.Fatalf("a second alias of the same revision replaced the first: %q", v)
	}
	if v, _ := c.Get(context.Background(), "s/resolved", 2, counted(&calls, "built@2")); v != "prepared for s/+built@2" || calls.Load() != 1 {
		t.Fatalf("revision 2: %q after %d builds", v, calls.Load())
	}
	c.Forget("s", "/")
	if keys := c.Keys(); len(keys) != 0 {
		t.Fatalf("forgetting s left %v", keys)
	}
}

func TestEvictLeastUsed(t *testing.T) {
	t0 := time.Now()
	m := map[string]time.Time{"a": t0.Add(3), "b": t0.Add(1), "c": t0.Add(2), "d": t0.Add(4)}
	evictLeastUsed(m, 2, func(v time.Time) time.Time { return v })
	if len(m) != 2 || m["a"].IsZero() || m["d"].IsZero() {
		t.Errorf("kept %v, want the two most recent (a, d)", m)
	}
	evictLeastUsed(m, 5, func(v time.Time) time.Time { return v })
	if len(m) != 2 {
		t.Errorf("evicted below the bound: %v", m)
	}
}
