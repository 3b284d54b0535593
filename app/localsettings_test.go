package app

import (
	"context"
	"testing"
)

// TestLocalSettings checks that a setting put is read back, by this app
// and by the next one on the same directory (from the file), and that a
// setting the file lacks is read from the workspace, where older versions
// kept it.
func TestLocalSettings(t *testing.T) {
	dir := t.TempDir()
	a := newApp(t, Options{Workspace: dir})
	if err := a.ws.Store.PutSetting(context.Background(), "legacy", "from the workspace"); err != nil {
		t.Fatal(err)
	}
	if err := a.local.put("annotate.annotator", "ann"); err != nil {
		t.Fatal(err)
	}
	fresh := &localSettings{app: a, path: a.local.path} // reads the file anew
	for _, l := range []*localSettings{a.local, fresh} {
		for key, want := range map[string]string{"annotate.annotator": "ann", "legacy": "from the workspace"} {
			var got string
			if ok, err := l.get(key, &got); err != nil || !ok || got != want {
				t.Errorf("get(%q) = %q, %v, %v; want %q", key, got, ok, err, want)
			}
		}
		var none string
		if ok, err := l.get("missing", &none); ok || err != nil {
			t.Errorf("a missing setting: %v, %v", ok, err)
		}
	}
}
