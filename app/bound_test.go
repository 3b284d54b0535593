package app

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/debug"
)

// TestBoundMethodsAreExplicit checks that each bound service exports
// exactly the methods boundMethods lists: what the desktop window binds
// (every exported method) and what serve mode calls are the same list,
// and a new exported method is a decision made here, not an accident.
func TestBoundMethodsAreExplicit(t *testing.T) {
	a := newApp(t, Options{})
	seen := map[string]bool{}
	for _, b := range a.services() {
		typ := reflect.TypeOf(b)
		svc := typ.Elem().Name()
		seen[svc] = true
		var exported []string
		for i := 0; i < typ.NumMethod(); i++ {
			exported = append(exported, typ.Method(i).Name)
		}
		listed := append([]string(nil), boundMethods[svc]...)
		sort.Strings(exported)
		sort.Strings(listed)
		if !reflect.DeepEqual(exported, listed) {
			t.Errorf("%s exports %v but boundMethods lists %v", svc, exported, listed)
		}
	}
	for svc := range boundMethods {
		if !seen[svc] {
			t.Errorf("boundMethods lists %s, which is not bound", svc)
		}
	}
}

// TestBoundSurface checks the bound surface against its golden file: each
// bound method once, with its Go signature. A change to what the page may
// call shows in review; `go test ./app -run TestBoundSurface
// -update-bindings` rewrites the file. The desktop window binds the
// Bridge alone, whose one method reaches these.
func TestBoundSurface(t *testing.T) {
	a := newApp(t, Options{})
	var lines []string
	for _, name := range BoundMethods() {
		fn, ok := a.dispatch()[name]
		if !ok {
			t.Fatalf("%s is listed but not dispatched", name)
		}
		lines = append(lines, name+" "+strings.TrimPrefix(fn.Type().String(), "func"))
	}
	got := strings.Join(lines, "\n") + "\n"
	const golden = "testdata/bound-surface.txt"
	if *updateBindings {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("the bound surface is not %s; review the change, then run go test ./app -run TestBoundSurface -update-bindings:\n%s", golden, got)
	}
	bridge := reflect.TypeOf(a.Bridge())
	if bridge.NumMethod() != 1 || bridge.Method(0).Name != "Call" {
		t.Fatalf("the desktop window's binding exports %d methods; it must export Call alone", bridge.NumMethod())
	}
}

// TestBridgeCallsTheBoundMethods checks that the window's one binding
// reaches the bound methods, decoding their arguments as Invoke does, and
// nothing else.
func TestBridgeCallsTheBoundMethods(t *testing.T) {
	a := newApp(t, Options{})
	b := a.Bridge()
	out, err := b.Call("Debugger", "Policies", nil)
	if err != nil || !reflect.DeepEqual(out, a.debugger.Policies(context.Background())) {
		t.Fatalf("Debugger.Policies through the bridge: %v, %v", out, err)
	}
	if _, err := b.Call("App", "Close", nil); !errors.Is(err, ErrNoMethod) {
		t.Errorf("App.Close through the bridge: %v, want ErrNoMethod", err)
	}
	var argErr *ArgumentError
	if _, err := b.Call("Sessions", "Open", []json.RawMessage{json.RawMessage(`{"not":"a string"}`)}); !errors.As(err, &argErr) {
		t.Errorf("Sessions.Open with an object through the bridge: %v", err)
	}
}

func TestInvokeCallsOnlyBoundMethods(t *testing.T) {
	a := newApp(t, Options{})
	if _, err := a.Invoke(context.Background(), "Sessions", "List", nil); !errors.Is(err, ErrForbidden) {
		t.Fatalf("List without a principal: %v, want ErrForbidden", err)
	}
	ctx := WithPrincipal(context.Background(), Principal{Name: "op", Role: RoleOperator})
	if _, err := a.Invoke(ctx, "Sessions", "List", nil); err != nil {
		t.Fatalf("List: %v", err)
	}
	for _, name := range [][2]string{{"Sessions", "Upload"}, {"App", "Close"}, {"Sessions", "openPath"}, {"Memory", "Nope"}} {
		if _, err := a.Invoke(ctx, name[0], name[1], nil); !errors.Is(err, ErrNoMethod) {
			t.Errorf("%s.%s: %v, want ErrNoMethod", name[0], name[1], err)
		}
	}
	var argErr *ArgumentError
	if _, err := a.Invoke(ctx, "Sessions", "Open", nil); !errors.As(err, &argErr) {
		t.Errorf("Open without its argument: %v", err)
	}
	if _, err := a.Invoke(ctx, "Sessions", "Open", []json.RawMessage{json.RawMessage(`{"not":"a string"}`)}); !errors.As(err, &argErr) {
		t.Errorf("Open with an object: %v", err)
	}
}

// TestNewerReplaySupersedesOne checks that a call superseded while its
// thread is still being prepared returns ErrSuperseded, that the newer one
// succeeds, and that callers of different identities do not supersede
// each other.
func TestNewerReplaySupersedesOne(t *testing.T) {
	a := newApp(t, Options{})
	info, err := a.sessions.OpenPath(context.Background(), claudeSession)
	if err != nil {
		t.Fatal(err)
	}
	d := a.debugger
	p := debug.Params{Thread: 0, Counter: "cl100k", Episodes: "inferred", Policy: "paper", Budget: 8000}
	ctx, done := a.latest.begin(context.Background(), "Debugger.Replay")
	defer done()
	first := make(chan error, 1)
	go func() {
		_, err := d.replay(ctx, info.Key, p)
		first <- err
	}()
	time.Sleep(5 * time.Millisecond)
	if _, err := d.Replay(context.Background(), info.Key, p); err != nil {
		t.Fatalf("the newer call: %v", err)
	}
	err = <-first
	if err != nil && !errors.Is(err, ErrSuperseded) {
		t.Fatalf("the superseded call: %v", err)
	}

	other, doneOther := a.latest.begin(WithCaller(context.Background(), "tab-2"), "Debugger.Replay")
	defer doneOther()
	mine, doneMine := a.latest.begin(WithCaller(context.Background(), "tab-1"), "Debugger.Replay")
	defer doneMine()
	if other.Err() != nil || mine.Err() != nil {
		t.Fatal("calls from two callers superseded each other")
	}
}

// TestAbandonedPreparationStops checks that a preparation nobody waits for
// any more is cancelled, and that the next call prepares afresh.
func TestAbandonedPreparationStops(t *testing.T) {
	a := newApp(t, Options{})
	info, err := a.sessions.OpenPath(context.Background(), claudeSession)
	if err != nil {
		t.Fatal(err)
	}
	d := a.debugger
	p := debug.Params{Thread: 0, Counter: "o200k", Episodes: "inferred", Policy: "paper", Budget: 8000}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := d.replay(ctx, info.Key, p); !errors.Is(err, context.Canceled) {
		t.Fatalf("a call whose caller left: %v", err)
	}
	n := 0
	for _, k := range d.replays.Keys() {
		if strings.Contains(k, "o200k") {
			n++
		}
	}
	if n != 0 {
		t.Fatalf("an abandoned preparation is still kept")
	}
	if _, err := d.replay(context.Background(), info.Key, p); err != nil {
		t.Fatalf("preparing again: %v", err)
	}
}
