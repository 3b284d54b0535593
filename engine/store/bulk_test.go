package store

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// rowByRow is PostgreSQL writing each row with its own statement, as it
// did before imports wrote in batches.
type rowByRow struct{ postgresDialect }

func (rowByRow) copier(context.Context, *sql.Conn) copyRows { return nil }

// TestBatchedImportMatchesRowByRow imports the importers' samples and the
// largest shared session (more entries and blocks than a batch holds,
// blobs, tool results with content, entries merged as their lines come)
// into two PostgreSQL workspaces, one writing rows in batches (COPY) and
// one row by row, and checks that every session reads back the same, and
// that re-importing a grown file appends to it the same way.
func TestBatchedImportMatchesRowByRow(t *testing.T) {
	needPostgres(t)
	ctx := context.Background()
	files, _ := filepath.Glob("../ingest/*/testdata/samples/*")
	big, _ := filepath.Abs(filepath.Join(sharedData, bigSession))
	files = append(files, big)
	batched, plain := openEngine(t, "postgres"), openEngine(t, "postgres")
	defer batched.Close()
	defer plain.Close()
	plain.d = rowByRow{}
	imported := 0
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.IsDir() {
			continue
		}
		a, errA := batched.ImportFile(ctx, f)
		b, errB := plain.ImportFile(ctx, f)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("%s: batched %v, row by row %v", f, errA, errB)
		}
		if errA != nil {
			continue
		}
		for k := range a.Sessions {
			sa, err := batched.Load(a.Sessions[k].Key)
			if err != nil {
				t.Fatal(err)
			}
			sb, err := plain.Load(b.Sessions[k].Key)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(sa, sb) {
				t.Errorf("%s: session %s reads back differently when written in batches", f, a.Sessions[k].Key)
			}
			imported++
		}
	}
	if imported < 10 {
		t.Fatalf("%d sessions compared", imported)
	}
	// A file that grows is appended to: its first half, then all of it.
	data, err := os.ReadFile(big)
	if err != nil {
		t.Fatal(err)
	}
	grown := filepath.Join(t.TempDir(), "grown.jsonl")
	half := data[:len(data)/2]
	half = half[:bytes.LastIndexByte(half, '\n')+1]
	var keys [2]string
	for i, s := range []*Store{batched, plain} {
		if err := os.WriteFile(grown, half, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ImportFile(ctx, grown); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(grown, data, 0o600); err != nil {
			t.Fatal(err)
		}
		res, err := s.ImportFile(ctx, grown)
		if err != nil {
			t.Fatal(err)
		}
		if res.Action != ActionAppended {
			t.Errorf("the grown file was %s, not appended", res.Action)
		}
		keys[i] = res.Sessions[0].Key
	}
	sa, _ := batched.Load(keys[0])
	sb, _ := plain.Load(keys[1])
	if sa == nil || !reflect.DeepEqual(sa, sb) {
		t.Error("an appended session reads back differently when written in batches")
	}
}
