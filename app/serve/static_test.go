package serve

import (
	"net/http"
	"testing"
)

// TestHashedAssetsAreKept checks which static files the browser may keep
// without asking again: the build's hashed assets, and nothing else (the
// page itself names the current ones, and an unknown path is the page).
func TestHashedAssetsAreKept(t *testing.T) {
	s := start(t)
	for _, tc := range []struct {
		path, cache string
	}{
		{"/assets/app-x1.js", "public, max-age=31536000, immutable"},
		{"/", ""},
		{"/index.html", ""},
		{"/boot-errors.js", ""},
		{"/favicon.ico", ""},
		{"/assets/gone-x2.js", ""},
	} {
		resp, err := http.Get(base(s) + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Cache-Control"); resp.StatusCode != http.StatusOK || got != tc.cache {
			t.Errorf("%s: status %d, Cache-Control %q, want %q", tc.path, resp.StatusCode, got, tc.cache)
		}
	}
}
