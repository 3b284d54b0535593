package store

import (
	"path/filepath"
	"runtime"
	"testing"
)

func TestDefaultDir(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the XDG rules apply on Linux")
	}
	tests := []struct {
		name, xdg, home, want string
	}{
		{"XDG_DATA_HOME wins", "/data", "/home/u", "/data/ctxscope"},
		{"relative XDG_DATA_HOME is ignored", "rel", "/home/u", "/home/u/.local/share/ctxscope"},
		{"unset falls back to ~/.local/share", "", "/home/u", "/home/u/.local/share/ctxscope"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_DATA_HOME", tc.xdg)
			t.Setenv("HOME", tc.home)
			got, err := DefaultDir()
			if err != nil || got != filepath.FromSlash(tc.want) {
				t.Fatalf("got %q %v, want %q", got, err, tc.want)
			}
		})
	}
}
