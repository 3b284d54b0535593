package store

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

func sessionJSON(t testing.TB, s *session.Session) []byte {
	t.Helper()
	b, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRoundTrip imports every shared session and checks that loading each
// session of a file back gives the importer's own output (a tau-bench file
// holds 200 sessions, an OpenHands evaluation three).
func TestRoundTrip(t *testing.T) {
	s := openTemp(t)
	for _, path := range sharedSessions(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			res := mustImport(t, s, path)
			want, err := ingest.ReadFileAll(path)
			if err != nil {
				t.Fatal(err)
			}
			if res.Action != ActionImported || len(res.Sessions) != len(want) {
				t.Fatalf("import: %s with %d sessions, want imported with %d", res.Action, len(res.Sessions), len(want))
			}
			for i, w := range want {
				got, err := s.Load(res.Sessions[i].Key)
				if err != nil {
					t.Fatal(err)
				}
				if g, wj := sessionJSON(t, got), sessionJSON(t, w); !bytes.Equal(g, wj) {
					t.Fatalf("session %d (%s) differs from the import:\n%s", i, w.ID, firstDiff(g, wj))
				}
				if !reflect.DeepEqual(got, w) {
					t.Errorf("session %d is not deeply equal to the import (JSON is)", i)
				}
			}
		})
	}
}

// TestKeepDecoded checks that the session an import hands back
// (KeepDecoded) is what Load reads back, at the revision stored: for every
// shared session, and for a session file imported in halves, the second
// import appending; and that an import not asked to keep it keeps nothing.
func TestKeepDecoded(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	kept := 0
	check := func(t *testing.T, res *ImportResult) {
		t.Helper()
		for _, c := range res.Sessions {
			if c.Decoded == nil {
				continue
			}
			kept++
			got, err := s.Load(c.Key)
			if err != nil {
				t.Fatal(err)
			}
			if g, d := sessionJSON(t, got), sessionJSON(t, c.Decoded); !bytes.Equal(g, d) {
				t.Fatalf("%s: the decoded session differs from the stored one:\n%s", c.Key, firstDiff(d, g))
			}
			if rev, err := s.Revision(ctx, c.Key); err != nil || rev != c.Revision {
				t.Fatalf("%s: revision %d handed back, %d stored (%v)", c.Key, c.Revision, rev, err)
			}
		}
	}
	for _, path := range sharedSessions(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			copied := filepath.Join(t.TempDir(), filepath.Base(path))
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(copied, data, 0o644)
			res, err := s.ImportFile(ctx, copied, KeepDecoded())
			if err != nil {
				t.Fatal(err)
			}
			head := data[:min(len(data), ingest.SniffSize)]
			im, err := ingest.DetectFile(copied, head)
			if err != nil {
				t.Fatal(err)
			}
			if streams := ingest.CanStream(im, head); streams != (res.Sessions[0].Decoded != nil) {
				t.Fatalf("read as it streams: %v; decoded session handed back: %v", streams, !streams)
			}
			check(t, res)
			for _, c := range mustImport(t, s, path).Sessions {
				if c.Decoded != nil {
					t.Fatalf("an import not asked to keep its session kept it")
				}
			}
		})
	}
	t.Run("appended", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(sharedData, bigSession))
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		grown := filepath.Join(t.TempDir(), "grown.jsonl")
		os.WriteFile(grown, bytes.Join(lines[:len(lines)/2], nil), 0o644)
		check(t, mustImportKeeping(t, s, grown))
		os.WriteFile(grown, data, 0o644)
		res := mustImportKeeping(t, s, grown)
		if res.Action != ActionAppended || res.Sessions[0].Decoded == nil {
			t.Fatalf("the second half: %s, decoded %v", res.Action, res.Sessions[0].Decoded != nil)
		}
		check(t, res)
	})
	if kept < 8 {
		t.Fatalf("only %d imports handed back their session", kept)
	}
}

func mustImportKeeping(t *testing.T, s *Store, path string) *ImportResult {
	t.Helper()
	res, err := s.ImportFile(context.Background(), path, KeepDecoded())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// firstDiff shows the first differing line of two texts.
func firstDiff(a, b []byte) string {
	al, bl := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(al) && i < len(bl); i++ {
		if !bytes.Equal(al[i], bl[i]) {
			return "line " + itoa(i+1) + ":\n got  " + string(al[i]) + "\n want " + string(bl[i])
		}
	}
	return "lengths differ: " + itoa(len(al)) + " vs " + itoa(len(bl)) + " lines"
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestReimportIsNoop imports every shared session twice more and checks
// that no table gains or loses a row.
func TestReimportIsNoop(t *testing.T) {
	s := openTemp(t)
	files := sharedSessions(t)
	for _, p := range files {
		mustImport(t, s, p)
	}
	before := rowCounts(t, s)
	for round := 0; round < 2; round++ {
		for _, p := range files {
			if res := mustImport(t, s, p); res.Action != ActionUnchanged {
				t.Errorf("re-import %s: action %s, want unchanged", filepath.Base(p), res.Action)
			}
		}
	}
	if after := rowCounts(t, s); !reflect.DeepEqual(before, after) {
		t.Fatalf("row counts changed:\nbefore %v\nafter  %v", before, after)
	}
	if before["entries"] == 0 || before["blocks"] == 0 {
		t.Fatalf("nothing stored: %v", before)
	}
}

// TestDuplicateContent imports a copy of a stored file from another path.
func TestDuplicateContent(t *testing.T) {
	s := openTemp(t)
	src := filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl")
	first := mustImport(t, s, src)
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(t.TempDir(), "copy.jsonl")
	os.WriteFile(cp, data, 0o644)
	before := rowCounts(t, s)
	res := mustImport(t, s, cp)
	if res.Action != ActionDuplicate || len(res.Sessions) != 1 || res.Sessions[0].Key != first.Sessions[0].Key {
		t.Fatalf("got %+v, want a duplicate of %s", res, first.Sessions[0].Key)
	}
	if after := rowCounts(t, s); !reflect.DeepEqual(before, after) {
		t.Fatalf("a duplicate wrote rows: %v -> %v", before, after)
	}
}

func TestImportErrors(t *testing.T) {
	s := openTemp(t)
	dir := t.TempDir()
	tests := []struct {
		name, content string
	}{
		{"empty.jsonl", ""},
		{"unknown.txt", "hello, world\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			os.WriteFile(p, []byte(tc.content), 0o644)
			if _, err := s.ImportFile(context.Background(), p); err == nil {
				t.Fatal("want an error")
			} else if !bytes.Contains([]byte(err.Error()), []byte(tc.name)) {
				t.Errorf("error %q does not name the file", err)
			}
			if n := rowCounts(t, s)["sources"]; n != 0 {
				t.Errorf("a failed import left %d source rows", n)
			}
		})
	}
	if _, err := s.ImportFile(context.Background(), filepath.Join(dir, "missing.jsonl")); err == nil {
		t.Error("want an error for a missing file")
	}
}

func TestKeySafe(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{"fe5e1c67-53e7-4862-81ae-d0e013e3270b", "fe5e1c67-53e7-4862-81ae-d0e013e3270b"},
		{"rollout-2026-01-02.synthetic", "rollout-2026-01-02.synthetic"},
		{`<script>alert("x")</script>`, "script-alert-x-script"},
		{"  ../../etc  ", "etc"},
		{"日本", ""},
		{strings.Repeat("a", 100), strings.Repeat("a", 64)},
	} {
		if got := keySafe(tc.id); got != tc.want {
			t.Errorf("keySafe(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
}

// TestSessionShareOfSource: the samples of an Inspect log are listed
// with their own sizes, and with the number of sessions their file holds;
// a session that is its whole file is listed at the file's size.
func TestSessionShareOfSource(t *testing.T) {
	s := openTemp(t)
	eval := filepath.Join(sharedData, "sessions/inspect-ai/inspect__2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval")
	res := mustImport(t, s, eval)
	pi := mustImport(t, s, filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl"))
	list, err := s.Sessions(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var samples int
	for _, si := range list {
		switch {
		case si.Format == "inspect":
			samples++
			if si.SourceSessions != 10 || si.Bytes <= 0 || si.Bytes >= res.Bytes*2 || si.Bytes == res.Bytes {
				t.Errorf("sample %s: %d bytes of a %d-byte file, %d sessions in it", si.ID, si.Bytes, res.Bytes, si.SourceSessions)
			}
		default:
			if si.SourceSessions != 1 || si.Bytes != pi.Bytes {
				t.Errorf("%s: %d bytes, %d sessions; want the file's %d and 1", si.ID, si.Bytes, si.SourceSessions, pi.Bytes)
			}
		}
	}
	if samples != 10 {
		t.Errorf("%d samples listed, want 10", samples)
	}
}

// TestRecordedTotalsKept: the totals an agent recorded for a session
// survive the store.
func TestRecordedTotalsKept(t *testing.T) {
	s := openTemp(t)
	path := "../ingest/minisweagent/testdata/samples/gemini-3-pro-django-16255.traj.json"
	want, err := ingest.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res := mustImport(t, s, path)
	got, err := s.Load(res.Sessions[0].Key)
	if err != nil {
		t.Fatal(err)
	}
	if want.Recorded == nil || !reflect.DeepEqual(got.Recorded, want.Recorded) {
		t.Errorf("recorded %+v, want %+v", got.Recorded, want.Recorded)
	}
}

// TestImportTellsAFileByItsFirstRecordsOutline imports a Claude Code file
// whose first record is longer than the head detection reads: a chat
// sniffer that looks for "role" and "content" anywhere in the head once
// claimed it, and nothing of it was stored. It is told by the first
// record's outline.
func TestImportTellsAFileByItsFirstRecordsOutline(t *testing.T) {
	s := openTemp(t)
	long := strings.Repeat("pasted log line\\n", 10_000) // 160 KB, escaped newlines
	line := `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"` + long +
		`"},"uuid":"u1","timestamp":"2026-06-05T04:56:32.812Z","userType":"external","cwd":"/","sessionId":"first-is-long","version":"2.1.152"}`
	path := filepath.Join(t.TempDir(), "long-first.jsonl")
	if err := os.WriteFile(path, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := mustImport(t, s, path)
	info, err := s.Session(context.Background(), res.Sessions[0].Key)
	if err != nil {
		t.Fatal(err)
	}
	if info.Format != "claude-code" || info.ID != "first-is-long" || info.Entries != 1 {
		t.Errorf("imported as %s %q with %d entries, want claude-code first-is-long with 1", info.Format, info.ID, info.Entries)
	}
}
