package app

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

// operatorOnly and desktopOnly are written out here, apart from the
// access table, so that a change to the table that widens what a member
// may do fails this test.
var (
	operatorOnly = []string{
		"Sessions.OpenPath", "Sessions.Import", "Sessions.Delete",
		"Live.Discovery", "Live.SetDiscovery", "Live.Proxy", "Live.SetProxy", "Live.SetLiveEviction", "Live.Follow", "Live.Unfollow",
		"Memory.Delete", "Memory.Merge", "Memory.Undo", "Memory.LLMSettings", "Memory.SetLLMSettings", "Memory.Import",
		"Annotations.Remove",
	}
	desktopOnly = []string{
		"Sessions.OpenDialog", "Debugger.SaveTimelineSVG", "Debugger.SaveReplay", "Debugger.SaveGraph",
		"Annotations.SetAnnotator",
	}
)

// TestAccessTableCoversEveryBoundMethod checks that every bound method has
// an entry in the access table and that the table names no other.
func TestAccessTableCoversEveryBoundMethod(t *testing.T) {
	bound := BoundMethods()
	for _, m := range bound {
		if _, ok := accessTable[m]; !ok {
			t.Errorf("%s is bound but has no entry in the access table", m)
		}
	}
	for m := range accessTable {
		if !slices.Contains(bound, m) {
			t.Errorf("the access table names %s, which is not bound", m)
		}
	}
}

// TestEveryBoundMethodIsAllowedByRole calls every bound method through
// Invoke as a member, an operator signed in with their token and the
// holder of the per-launch token, and checks each answer: refused with
// ErrForbidden, or let through to the method (which may then refuse the
// missing arguments, but not the caller).
func TestEveryBoundMethodIsAllowedByRole(t *testing.T) {
	a := newApp(t, Options{})
	launch, err := a.LaunchPrincipal("lee")
	if err != nil {
		t.Fatal(err)
	}
	callers := []struct {
		name string
		p    Principal
	}{
		{"member", Principal{Name: "ann", Role: RoleMember}},
		{"operator", Principal{Name: "ops", Role: RoleOperator}},
		{"launch token", launch},
	}
	for _, method := range BoundMethods() {
		for _, c := range callers {
			want := "allowed"
			switch {
			case slices.Contains(desktopOnly, method):
				want = "denied"
			case slices.Contains(operatorOnly, method) && c.p.Role == RoleMember:
				want = "denied"
			}
			svc, name := splitMethod(method)
			_, err := a.Invoke(WithPrincipal(context.Background(), c.p), svc, name, nil)
			got := "allowed"
			if errors.Is(err, ErrForbidden) {
				got = "denied"
			}
			if got != want {
				t.Errorf("%s as %s: %s (%v), want %s", method, c.name, got, err, want)
			}
		}
	}
}

// TestMembersBuildMemoryOfflineOnly checks the arguments a member may
// build memory with: a workspace session and the offline extractor.
func TestMembersBuildMemoryOfflineOnly(t *testing.T) {
	member := Principal{Name: "ann", Role: RoleMember}
	for _, tc := range []struct {
		req     BuildRequest
		allowed bool
	}{
		{BuildRequest{Source: "session", Session: "s", Extractor: "offline"}, true},
		{BuildRequest{Source: "session", Session: "s", Extractor: "llm"}, false},
		{BuildRequest{Source: "session", Session: "s", Extractor: ""}, false},
		{BuildRequest{Source: "locomo", Path: "/etc/passwd", Extractor: "offline"}, false},
		{BuildRequest{Source: "locomo", Extractor: "offline"}, false},
	} {
		raw, _ := json.Marshal(tc.req)
		err := authorize(member, "Memory.Build", []json.RawMessage{raw})
		if (err == nil) != tc.allowed {
			t.Errorf("a member's build %+v: %v, want allowed=%v", tc.req, err, tc.allowed)
		}
		if err := authorize(Principal{Name: "ops", Role: RoleOperator}, "Memory.Build", []json.RawMessage{raw}); err != nil {
			t.Errorf("an operator's build %+v: %v", tc.req, err)
		}
	}
	if err := authorize(Principal{Name: "x", Role: "admin"}, "Sessions.List", nil); !errors.Is(err, ErrForbidden) {
		t.Errorf("an unknown role: %v", err)
	}
}

// TestLaunchPrincipalAnnotatesUnderOneName checks the name the per-launch
// token's marks are made under: the one given, else the desktop's, and
// that it is normalised like a user's.
func TestLaunchPrincipalAnnotatesUnderOneName(t *testing.T) {
	a := newApp(t, Options{})
	if p, err := a.LaunchPrincipal("Lee"); err != nil || p.Name != "lee" || p.Role != RoleOperator || !p.Launch {
		t.Errorf("LaunchPrincipal(Lee) = %+v, %v", p, err)
	}
	if _, err := a.annotate.SetAnnotator(context.Background(), "Rui"); err != nil {
		t.Fatal(err)
	}
	if p, err := a.LaunchPrincipal(""); err != nil || p.Name != "rui" {
		t.Errorf("LaunchPrincipal() after the desktop set Rui = %+v, %v", p, err)
	}
	if _, err := a.LaunchPrincipal("\u0430nn"); err == nil {
		t.Error("a name mixing Cyrillic and Latin letters was taken")
	}
}

func splitMethod(m string) (string, string) {
	for i := range m {
		if m[i] == '.' {
			return m[:i], m[i+1:]
		}
	}
	return m, ""
}
