package store

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// TestReadersDuringImports reads from the workspace continuously while
// imports write to it: with one writer and WAL readers, no read fails or
// waits for the writer, and every read sees whole sessions.
func TestReadersDuringImports(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	small := mustImport(t, s, filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl")).Sessions[0].Key
	data, err := os.ReadFile(filepath.Join(sharedData, bigSession))
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var reads atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for r := 0; r < 3; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				list, err := s.Sessions(ctx, 0, 0)
				if err == nil {
					_, err = s.Load(small)
				}
				for _, si := range list {
					if err == nil && si.Entries != 8 && si.Entries != 1003 {
						err = fmt.Errorf("session %s seen with %d entries: a half-written import", si.Key, si.Entries)
					}
				}
				if err != nil {
					errs <- err
					return
				}
				reads.Add(1)
			}
		}()
	}
	dir := t.TempDir()
	for i := 0; i < 4; i++ {
		p := filepath.Join(dir, "copy"+itoa(i)+".jsonl")
		os.WriteFile(p, append(append([]byte{}, data...), bytes.Repeat([]byte("\n"), i+1)...), 0o644)
		mustImport(t, s, p)
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if reads.Load() == 0 {
		t.Fatal("no read completed during the imports")
	}
	t.Logf("%d reads during 4 imports", reads.Load())
}

// TestSameSessionIDFromTwoFiles keeps two different files that carry the
// same session id as two sessions with distinct keys.
func TestSameSessionIDFromTwoFiles(t *testing.T) {
	s := openTemp(t)
	src := filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl")
	data, _ := os.ReadFile(src)
	other := filepath.Join(t.TempDir(), "other.jsonl")
	os.WriteFile(other, append(append([]byte{}, data...), '\n'), 0o644)
	a := mustImport(t, s, src).Sessions[0]
	b := mustImport(t, s, other).Sessions[0]
	if a.Key == b.Key || b.Key != a.Key+"-2" || b.Action != ActionImported {
		t.Fatalf("keys %q and %q (%s)", a.Key, b.Key, b.Action)
	}
}
