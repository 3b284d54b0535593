package inputfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestRefusesWhatIsNotARegularFile checks each kind of path that would
// hang or never end a read, within a second each.
func TestRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.jsonl")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	toFifo := filepath.Join(dir, "link-to-pipe.jsonl")
	if err := os.Symlink(fifo, toFifo); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, zero, toFifo, "/dev/null", dir} {
		done := make(chan error, 1)
		go func() {
			f, _, err := Open(path)
			if f != nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s: %v, want ErrNotRegular", path, err)
			}
		case <-time.After(time.Second):
			t.Fatalf("%s: Open hung", path)
		}
		if _, err := ReadAll(path, 0); !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadAll %s: %v", path, err)
		}
	}
}

func TestReadsRegularFilesAndSymlinksToThem(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.jsonl")
	os.WriteFile(file, []byte("{}\n"), 0o600)
	link := filepath.Join(dir, "link.jsonl")
	os.Symlink(file, link)
	for _, p := range []string{file, link} {
		data, err := ReadAll(p, 0)
		if err != nil || string(data) != "{}\n" {
			t.Errorf("%s: %q, %v", p, data, err)
		}
	}
	if _, err := ReadAll(file, 2); err == nil {
		t.Error("a file over the limit was read")
	}
}
