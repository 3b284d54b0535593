package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"ctxscope/engine/ingest/otlp"
	"ctxscope/engine/ingest/otlp/otlptest"
	"ctxscope/engine/store"
)

// TestReceiverGrowsSessions sends a conversation's turns through the OTLP
// receiver, one export each, and checks after each that the stored session
// is what an import of its spool file gives, that the file was imported
// whole only when first read and again after the receiver forgot it, and
// that the frontend hears of the session: new once, then grown.
func TestReceiverGrowsSessions(t *testing.T) {
	ctx := context.Background()
	a := newApp(t, Options{Workspace: t.TempDir(), Home: t.TempDir()})
	rec := &eventRecorder{events: make(chan recorded, 1024)}
	a.SetPlatform(rec)
	ref, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	spool := filepath.Join(a.ws.Store.Dir(), otlpDir, spoolName("conv-receive"))
	key := ""
	for turn := range 24 {
		if turn == 16 {
			// The receiver forgets the file, as it does beyond
			// maxSpoolFiles: the next export reads it whole.
			a.otlp.mu.Lock()
			clear(a.otlp.files)
			a.otlp.mu.Unlock()
		}
		if _, err := a.ReceiveOTLP(ctx, otlp.Traces, otlptest.AgentTurn("conv-receive", turn, 1), false); err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		if _, err := ref.ImportFile(ctx, spool); err != nil {
			t.Fatal(err)
		}
		got, want := stored(t, a.ws.Store, "conv-receive"), stored(t, ref, "conv-receive")
		if got != want {
			t.Fatalf("turn %d: received:\n%.1500s\nimported:\n%.1500s", turn, got, want)
		}
		if turn == 0 {
			// Notices gather what changes within noticeEvery: the
			// session is told new before it grows, however fast the
			// turns come.
			key = rec.waitFor(t, EventDiscovered, func(any) bool { return true }).(Discovered).Keys[0]
		}
	}
	if n := a.otlp.wholeImports.Load(); n != 2 {
		t.Errorf("the spool file was imported whole %d times, want 2 (first read, and after it was forgotten)", n)
	}
	rec.waitFor(t, EventAppended, func(d any) bool { return d.(Appended).Key == key && d.(Appended).Requests == 24 })
	if _, err := os.Stat(spool); err != nil {
		t.Fatal(err)
	}
}

// stored is the session of s whose id is id, as JSON.
func stored(t *testing.T, s *store.Store, id string) string {
	t.Helper()
	list, err := s.Sessions(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	key := ""
	for _, l := range list {
		if l.ID == id {
			key = l.Key
		}
	}
	ss, err := s.Load(key)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(ss)
	return string(b)
}
