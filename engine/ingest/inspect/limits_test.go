package inspect

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/ingest/inspect/inspecttest"
	"ctxscope/engine/session"
)

// TestZipBombIsRefusedBeforeInflating reads a 2.6 GB-inflating container:
// the sample is refused from its declared sizes, quickly, with a
// diagnostic that says why, and the bomb is well formed (the same stream
// under a generous limit would inflate in full).
func TestZipBombIsRefusedBeforeInflating(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bomb.eval")
	if err := inspecttest.WriteBomb(path, 2560<<20); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start := time.Now()
	var got []*session.Session
	if err := (Importer{}).ImportEach(f, path, func(s *session.Session) error { got = append(got, s); return nil }); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("refusing took %v: something was inflated", d)
	}
	if len(got) != 1 || len(got[0].Diagnostics) == 0 || !strings.Contains(got[0].Diagnostics[0].Message, "not inflated") {
		t.Fatalf("want one session with a refusal, got %+v", got)
	}
	if n := len(got[0].Main().Entries); n != 0 {
		t.Fatalf("the refused sample has %d entries", n)
	}

	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	rc, err := zr.File[1].Open()
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.CopyN(io.Discard, rc, 64<<20)
	if err != nil || n != 64<<20 {
		t.Fatalf("the bomb is not a valid stream: %d bytes, %v", n, err)
	}
}

func TestMemberLimits(t *testing.T) {
	for _, tc := range []struct {
		name         string
		size, packed uint64
		wantRefusal  bool
	}{
		{"small and highly compressed", 512 << 10, 100, false},
		{"ordinary JSON", 40 << 20, 4 << 20, false},
		{"over the size limit", maxMember + 1, maxMember, true},
		{"bomb ratio", 100 << 20, 100 << 10, true},
	} {
		err := checkMember(&zip.File{FileHeader: zip.FileHeader{Name: "samples/x.json", UncompressedSize64: tc.size, CompressedSize64: tc.packed}})
		if (err != nil) != tc.wantRefusal {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// TestManyMembersAreRefusedTogether imports a container of 2,000 samples,
// each 1 MiB − 1 of zeros: every member passes the per-member checks, but
// together they would inflate about 2 GB from a few megabytes. The import
// is refused before anything is inflated.
func TestManyMembersAreRefusedTogether(t *testing.T) {
	path := filepath.Join(t.TempDir(), "many.eval")
	if err := inspecttest.WriteManyMembers(path, 2000, 1<<20-1); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	err = (Importer{}).ImportEach(f, path, func(*session.Session) error { n++; return nil })
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "not inflated") || n != 0 {
		t.Fatalf("ImportEach: %v after %d sessions, want a refusal before any", err, n)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 64<<20 {
		t.Errorf("refusing allocated %d MB: something was inflated", grown>>20)
	}
}
