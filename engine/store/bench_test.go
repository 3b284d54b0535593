package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"ctxscope/engine/ingest"
)

// The store benchmarks compare each workspace operation with decoding the
// same file (ingest.Read), measured in the same run: the ratio says what
// the workspace adds to reading a session.

func benchFile(b *testing.B) (string, []byte) {
	p, _ := filepath.Abs(filepath.Join(sharedData, bigSession))
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	return p, data
}

// BenchmarkDecode is the baseline: parsing the largest shared session.
func BenchmarkDecode(b *testing.B) {
	p, data := benchFile(b)
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		if _, err := ingest.Read(bytes.NewReader(data), p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImport imports the largest shared session into a new workspace
// each iteration: decode, hash, and one transaction of inserts. It runs on
// both engines, SQLite and PostgreSQL (pgtest's throwaway server on a
// Unix socket, with fsync off), so their MB/s compare within one run.
// Neither waits for the disk at each commit: SQLite's synchronous=NORMAL
// in WAL mode syncs at checkpoints only.
func BenchmarkImport(b *testing.B) {
	p, data := benchFile(b)
	ctx := context.Background()
	for _, engine := range []string{"sqlite", "postgres"} {
		b.Run("engine="+engine, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				s := openEngine(b, engine)
				b.StartTimer()
				if _, err := s.ImportFile(ctx, p); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				s.Close()
				b.StartTimer()
			}
		})
	}
}

// BenchmarkImportOpen is BenchmarkImport into a workspace opened once, as
// a server's is: its connections are warm (the server has read its
// catalogue and planned the store's queries). Each iteration imports the
// file and then, untimed, deletes the session, so that the next imports
// it again.
func BenchmarkImportOpen(b *testing.B) {
	p, data := benchFile(b)
	ctx := context.Background()
	for _, engine := range []string{"sqlite", "postgres"} {
		b.Run("engine="+engine, func(b *testing.B) {
			s := openEngine(b, engine)
			defer s.Close()
			b.SetBytes(int64(len(data)))
			b.ResetTimer() // opening (on PostgreSQL, creating the database) is not the import
			for i := 0; i < b.N; i++ {
				res, err := s.ImportFile(ctx, p)
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if err := s.DeleteSession(ctx, res.Sessions[0].Key); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
	}
}

// BenchmarkReimportUnchanged re-imports a stored file: read, hash, and a
// look-up that finds nothing to do.
func BenchmarkReimportUnchanged(b *testing.B) {
	p, data := benchFile(b)
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	s.ImportFile(ctx, p)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res, err := s.ImportFile(ctx, p); err != nil || res.Action != ActionUnchanged {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkLoad reads the stored session back into the model.
func BenchmarkLoad(b *testing.B) {
	p, data := benchFile(b)
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	res, err := s.ImportFile(context.Background(), p)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Load(res.Sessions[0].Key); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendTail appends ten records to a stored session and imports
// the grown file: what a live tail costs per update.
func BenchmarkAppendTail(b *testing.B) {
	_, data := benchFile(b)
	lines := bytes.SplitAfter(data, []byte("\n"))
	live := filepath.Join(b.TempDir(), "live.jsonl")
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, err := Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		os.WriteFile(live, bytes.Join(lines[:len(lines)-10], nil), 0o644)
		s.ImportFile(ctx, live)
		os.WriteFile(live, data, 0o644)
		b.StartTimer()
		if res, err := s.ImportFile(ctx, live); err != nil || res.Action != ActionAppended {
			b.Fatal(res, err)
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
}

// FuzzScanSource checks that an import consumes a prefix of the file
// that is either all of it or ends at a newline, and that the hashes the
// scan reads in chunks are those of the bytes they cover.
func FuzzScanSource(f *testing.F) {
	_, data := benchFile(&testing.B{})
	lines := bytes.SplitAfter(data, []byte("\n"))
	f.Add(bytes.Join(lines[:3], nil), 10)
	f.Add(append(bytes.Join(lines[:3], nil), lines[3][:20]...), 100)
	f.Add([]byte(`[{"role":"user"}]`), 3)
	f.Add([]byte("{\"a\":1}\n{\"b\""), 0)
	f.Fuzz(func(t *testing.T, in []byte, prefixAt int) {
		sc, err := scanSource(bytes.NewReader(in), int64(len(in)), int64(prefixAt))
		if err != nil {
			t.Fatal(err)
		}
		out := in[:sc.size]
		if len(out) != len(in) && (len(out) == 0 || out[len(out)-1] != '\n') {
			t.Fatalf("cut %q to %q: not at a newline", in, out)
		}
		if sc.hash != contentHash(out) {
			t.Fatalf("hash of %d bytes differs", len(out))
		}
		if prefixAt > 0 && int64(prefixAt) < sc.size {
			if sc.prefixHash != contentHash(out[:prefixAt]) {
				t.Fatalf("prefix hash at %d differs", prefixAt)
			}
		} else if sc.prefixHash != "" {
			t.Fatalf("a prefix hash at %d of %d bytes", prefixAt, sc.size)
		}
	})
}
