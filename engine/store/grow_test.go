package store

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"ctxscope/engine/ingest/otlp"
	"ctxscope/engine/ingest/otlp/otlptest"
)

// appendTurn appends turn of conversation conv to f.
func appendTurn(t *testing.T, sp *otlp.Spooler, f *otlp.SpoolFile, conv string, turn int) otlp.Appended {
	t.Helper()
	groups, _, err := sp.Split(otlp.Traces, otlptest.AgentTurn(conv, turn, 1), false)
	if err != nil {
		t.Fatal(err)
	}
	a, err := f.Append(groups[conv])
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestGrowMatchesImport grows a conversation's spool file a turn at a
// time, each turn's last tool result replaced by the next turn's input,
// stores each growth, and checks that the store then holds what a fresh
// import of the file holds, that an import of the file finds it
// unchanged, and that the replaced tails are recorded as rewinds.
func TestGrowMatchesImport(t *testing.T) {
	ctx := context.Background()
	s, ref := openTemp(t), openTemp(t)
	path := filepath.Join(t.TempDir(), "conv.otlp.jsonl")
	f := otlp.NewSpoolFile(path)
	sp := otlp.NewSpooler()
	const turns = 30
	for turn := range turns {
		a := appendTurn(t, sp, f, "conv-grow", turn)
		if a.Opened {
			mustImport(t, s, path)
		} else {
			res, err := s.Grow(ctx, SpoolGrowth(path, a))
			if err != nil {
				t.Fatalf("turn %d: %v", turn, err)
			}
			if c := res.Sessions[0]; c.Added > 3 || c.Entries != len(a.Updates[0].Session.Main().Entries) {
				t.Errorf("turn %d: %+v: more written than the turn", turn, c)
			}
		}
		if turn%7 == 0 || turn == turns-1 {
			mustImport(t, ref, path)
			if got, want := loadJSON(t, s, "conv-grow"), loadJSON(t, ref, "conv-grow"); got != want {
				t.Fatalf("turn %d: grown:\n%.2000s\nimported:\n%.2000s", turn, got, want)
			}
		}
	}
	if res := mustImport(t, s, path); res.Action != ActionUnchanged {
		t.Errorf("an import of the grown file: %s, want unchanged", res.Action)
	}
	rw, err := s.RewindsSince(ctx, "conv-grow", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rw) != turns-1 || len(rw[0].EntryIDs) != 1 {
		t.Errorf("%d rewinds (first %+v), want one per later turn, of the tool result the next input replaced", len(rw), rw[0])
	}

	// A growth that starts from what is not stored changes nothing.
	g := SpoolGrowth(path, appendTurn(t, sp, f, "conv-grow", turns))
	g.Before.Hash = "0" + g.Before.Hash[1:]
	_, err = s.Grow(ctx, g)
	if !errors.Is(err, ErrStale) {
		t.Fatalf("a growth from another state: %v, want ErrStale", err)
	}
	if got, want := loadJSON(t, s, "conv-grow"), loadJSON(t, ref, "conv-grow"); got != want {
		t.Error("a stale growth changed the session")
	}
}

func loadJSON(t *testing.T, s *Store, key string) string {
	t.Helper()
	ss, err := s.Load(key)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(ss)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
