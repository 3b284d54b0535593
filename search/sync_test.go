package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"ctxscope/engine/ingest/otlp"
	"ctxscope/engine/ingest/otlp/otlptest"
	"ctxscope/engine/memory/memstore"
	"ctxscope/engine/store"
)

func docCount(t testing.TB, x *Index) uint64 {
	t.Helper()
	n, err := x.DocCount()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func mustSync(t testing.TB, w *workspace) SyncStats {
	t.Helper()
	st, err := w.idx.Sync(context.Background(), w.st)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestIncrementalSync grows a session file and checks that each sync
// indexes only the documents of the new entries and ends where a fresh
// index of the whole file does.
func TestIncrementalSync(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(sharedData, "sessions/pi/pi-cwl__large-session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	live := filepath.Join(t.TempDir(), "live.jsonl")
	w := newWorkspace(t)
	ctx := context.Background()
	cut := len(lines) / 2
	os.WriteFile(live, bytes.Join(lines[:cut], nil), 0o644)
	w.st.ImportFile(ctx, live)
	first := mustSync(t, w)
	if first.Indexed == 0 || first.Sessions != 1 {
		t.Fatalf("first sync: %+v", first)
	}
	if again := mustSync(t, w); again != (SyncStats{}) {
		t.Fatalf("a sync with nothing new did %+v", again)
	}
	os.WriteFile(live, data, 0o644)
	if res, err := w.st.ImportFile(ctx, live); err != nil || res.Action != store.ActionAppended {
		t.Fatalf("append: %+v %v", res, err)
	}
	second := mustSync(t, w)
	whole := newWorkspace(t, live)
	if docCount(t, w.idx) != docCount(t, whole.idx) {
		t.Fatalf("incremental index has %d documents, a fresh one %d", docCount(t, w.idx), docCount(t, whole.idx))
	}
	if uint64(first.Indexed+second.Indexed) != docCount(t, w.idx) || second.Deleted != 0 {
		t.Fatalf("syncs indexed %d + %d (deleted %d) documents for %d in the index: something was indexed twice",
			first.Indexed, second.Indexed, second.Deleted, docCount(t, w.idx))
	}
	last := lastText(t, w)
	res, err := w.idx.Search(Request{Query: last, Mode: ModePlain})
	if err != nil || res.Total == 0 {
		t.Fatalf("text of the appended part (%q) not found: %v", last, err)
	}
}

// lastText returns a few words of the last user message with text.
func lastText(t *testing.T, w *workspace) string {
	list, _ := w.st.Sessions(context.Background(), 0, 0)
	ss, err := w.st.Load(list[0].Key)
	if err != nil {
		t.Fatal(err)
	}
	es := ss.Main().Entries
	for i := len(es) - 1; i >= 0; i-- {
		if m := es[i].Message; m != nil && m.IsUser() && len(m.Blocks) > 0 && len(strings.Fields(m.Blocks[0].Text)) > 2 {
			return strings.Join(strings.Fields(m.Blocks[0].Text)[:3], " ")
		}
	}
	t.Fatal("no user text")
	return ""
}

func TestSyncFollowsDeletesAndRewrites(t *testing.T) {
	live := filepath.Join(t.TempDir(), "live.jsonl")
	copyTo(t, filepath.Join(sharedData, "sessions/pi/pi-cwl__large-session.jsonl"), live)
	w := newWorkspace(t, live, filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl"))
	ctx := context.Background()
	small := docsOf(t, w, "019e19b4-eb48-746a-aa6b-8dfcfa37954b")
	copyTo(t, filepath.Join(sharedData, "sessions/pi/pi-cwl__assistant-message-with-thinking-code.json"), live)
	w.st.ImportFile(ctx, live)
	st := mustSync(t, w)
	if st.Deleted == 0 || st.Indexed == 0 {
		t.Fatalf("rewrite: %+v", st)
	}
	if n := docsOf(t, w, "d703a1a9-1b7b-4fb1-b512-c9738b1fe617"); n != 0 {
		t.Fatalf("%d documents of the replaced session remain", n)
	}
	if err := w.st.DeleteSession(ctx, "019e19b4-eb48-746a-aa6b-8dfcfa37954b"); err != nil {
		t.Fatal(err)
	}
	if st := mustSync(t, w); st.Deleted != small {
		t.Fatalf("delete removed %d documents, want %d", st.Deleted, small)
	}
	memstore.TablesOf(w.st).Ensure(ctx, "m", "test")
	memstore.TablesOf(w.st).PutPassages(ctx, "m", []memstore.Passage{{ID: "p1", Text: "a passage about lighthouses"}})
	mustSync(t, w)
	memstore.TablesOf(w.st).Delete(ctx, "m")
	if st := mustSync(t, w); st.Deleted != 1 {
		t.Fatalf("deleting a memory set removed %d documents, want 1", st.Deleted)
	}
}

func docsOf(t *testing.T, w *workspace, key string) int {
	res, err := w.idx.Search(Request{Session: key, Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	return int(res.Total)
}

func copyTo(t *testing.T, src, dst string) {
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(dst, data, 0o644)
}

// TestMappingChangeRebuilds reopens an index whose recorded mapping
// version differs and checks that it is rebuilt and refilled.
func TestMappingChangeRebuilds(t *testing.T) {
	w := newWorkspace(t, filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl"))
	want := docCount(t, w.idx)
	if err := w.idx.idx.SetInternal(keyMapping, []byte("an older mapping")); err != nil {
		t.Fatal(err)
	}
	w.idx.Close()
	x, rebuilt, err := Open(filepath.Join(w.dir, DirName))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if !rebuilt || docCount(t, x) != 0 {
		t.Fatalf("rebuilt %v with %d documents", rebuilt, docCount(t, x))
	}
	if _, err := x.Sync(context.Background(), w.st); err != nil {
		t.Fatal(err)
	}
	if docCount(t, x) != want {
		t.Fatalf("%d documents after the rebuild, want %d", docCount(t, x), want)
	}
	x2, rebuilt, err := Open(t.TempDir())
	if err != nil || rebuilt {
		t.Fatalf("open an empty directory: %v %v", rebuilt, err)
	}
	x2.Close()
	notIndex := t.TempDir()
	os.WriteFile(filepath.Join(notIndex, "precious.txt"), []byte("keep me"), 0o644)
	if _, _, err := Open(notIndex); err == nil {
		t.Fatal("opened a directory that is not an index")
	}
	if _, err := os.Stat(filepath.Join(notIndex, "precious.txt")); err != nil {
		t.Fatal("a directory that is not an index was wiped")
	}
}

func TestBadQueries(t *testing.T) {
	w := newWorkspace(t, filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl"))
	for _, q := range []string{"+", "-", "a:>", "tool:\"bash", "/[/", "line:>=", "^", "text:~", "\""} {
		_, err := w.idx.Search(Request{Query: q})
		if !errors.Is(err, ErrBadQuery) {
			t.Errorf("%q: got %v, want ErrBadQuery", q, err)
			continue
		}
		if !strings.Contains(err.Error(), "bad query") {
			t.Errorf("%q: unclear error %q", q, err)
		}
	}
	for _, q := range []string{"+", "/[/", "tool:\"bash"} {
		if _, err := w.idx.Search(Request{Query: q, Mode: ModePlain}); err != nil {
			t.Errorf("plain %q: %v", q, err)
		}
	}
}

func TestEpisodesSearchable(t *testing.T) {
	p := filepath.Join(t.TempDir(), "delim.jsonl")
	os.WriteFile(p, []byte(delimiterSession), 0o644)
	w := newWorkspace(t, p)
	res, err := w.idx.Search(Request{Query: "+kind:episode locate filter", Facets: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 1 || res.Hits[0].Episode != "find-filter" || res.Hits[0].Entry != "t1" || res.Hits[0].Session != "delim" {
		t.Fatalf("episode hits: %+v", res.Hits)
	}
	res, _ = w.idx.Search(Request{Query: "context-filter.ts", Kind: KindEpisode})
	if res.Total != 1 {
		t.Fatalf("episode description not searchable by path: %d hits", res.Total)
	}
}

// TestEpisodesFollowGrowth grows a session a few entries at a time: its
// episode appears in the index with the growth that declares it, keeps
// the description its end delimiter gives, and stays through a later
// growth that calls no delimiter (the index remembers that the session
// declares episodes, and reads it whole again).
func TestEpisodesFollowGrowth(t *testing.T) {
	lines := strings.SplitAfter(delimiterSession, "\n")
	later := `{"type":"message","id":"u2","parentId":"t2","timestamp":"2025-12-01T10:00:06.000Z","message":{"role":"user","content":"Thanks","timestamp":1764583206000}}` + "\n"
	live := filepath.Join(t.TempDir(), "delim.jsonl")
	w := newWorkspace(t)
	episodes := func() []string {
		t.Helper()
		res, err := w.idx.Search(Request{Query: "find-filter", Kind: KindEpisode})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range res.Hits {
			out = append(out, h.Episode+"@"+h.Entry)
		}
		return out
	}
	for _, step := range []struct {
		upTo  string
		found int
		query string
	}{
		{strings.Join(lines[:2], ""), 0, ""},
		{strings.Join(lines[:4], ""), 1, "locate the filter"},
		{delimiterSession, 1, "context-filter.ts"},
		{delimiterSession + later, 1, "context-filter.ts"},
	} {
		os.WriteFile(live, []byte(step.upTo), 0o644)
		if _, err := w.st.ImportFile(context.Background(), live); err != nil {
			t.Fatal(err)
		}
		mustSync(t, w)
		got := episodes()
		if len(got) != step.found || (step.found > 0 && got[0] != "find-filter@t1") {
			t.Fatalf("after %d lines: episodes %v, want %d at t1", strings.Count(step.upTo, "\n"), got, step.found)
		}
		if step.query == "" {
			continue
		}
		if res, _ := w.idx.Search(Request{Query: step.query, Kind: KindEpisode}); res.Total != 1 {
			t.Fatalf("after %d lines: %q finds %d episodes, want 1", strings.Count(step.upTo, "\n"), step.query, res.Total)
		}
	}
	if whole := newWorkspace(t, live); docCount(t, w.idx) != docCount(t, whole.idx) {
		t.Fatalf("grown index has %d documents, a fresh one %d", docCount(t, w.idx), docCount(t, whole.idx))
	}
}

// delimiterSession is a small pi v3 session in which the agent opens and
// closes one episode with CWL delimiter calls.
const delimiterSession = `{"type":"session","version":3,"id":"delim","timestamp":"2025-12-01T10:00:00.000Z","cwd":"/repo"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2025-12-01T10:00:01.000Z","message":{"role":"user","content":"Find filterContext","timestamp":1764583201000}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2025-12-01T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"delimiter","arguments":{"action":"start","name":"find-filter","type":"expl"}}],"stopReason":"toolUse","timestamp":1764583202000}}
{"type":"message","id":"t1","parentId":"a1","timestamp":"2025-12-01T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"delimiter","content":[{"type":"text","text":"started"}],"details":{"chunkEvent":{"action":"start","chunk":{"name":"find-filter","type":"expl","description":"locate the filter"}}},"isError":false,"timestamp":1764583203000}}
{"type":"message","id":"a2","parentId":"t1","timestamp":"2025-12-01T10:00:04.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"delimiter","arguments":{"action":"end","name":"find-filter"}}],"stopReason":"toolUse","timestamp":1764583204000}}
{"type":"message","id":"t2","parentId":"a2","timestamp":"2025-12-01T10:00:05.000Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"delimiter","content":[{"type":"text","text":"ended"}],"details":{"chunkEvent":{"action":"end","chunk":{"name":"find-filter","type":"expl","description":"found it in context-filter.ts"}}},"isError":false,"timestamp":1764583205000}}
`

// FuzzSearch checks that no query string, in either mode, panics: it
// either runs or fails with ErrBadQuery.
func FuzzSearch(f *testing.F) {
	for _, s := range []string{"context-filter.ts", `"run the tests"`, "+tool:bash -kind:thinking", "line:>10", "/a.*b/", "tool:\"bash", "a:>", "(x", "~2", `\\`, "+"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	w := newWorkspace(f, filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl"))
	f.Fuzz(func(t *testing.T, q string, plain bool) {
		mode := ModeQuery
		if plain {
			mode = ModePlain
		}
		if _, err := w.idx.Search(Request{Query: q, Mode: mode, Facets: true}); err != nil && !errors.Is(err, ErrBadQuery) {
			t.Fatalf("%q: %v", q, err)
		}
	})
}

// TestSyncFollowsRewinds grows a conversation's spool file a turn at a
// time, each growth replacing the previous turn's last entry (the tool
// result its execute_tool span recorded, which the next call's input
// then carries), syncing after each, and checks that the index ends with
// the documents a fresh index of the same store has: none of a replaced
// entry is left.
func TestSyncFollowsRewinds(t *testing.T) {
	ctx := context.Background()
	w := newWorkspace(t)
	path := filepath.Join(t.TempDir(), "conv.otlp.jsonl")
	f := otlp.NewSpoolFile(path)
	sp := otlp.NewSpooler()
	for turn := range 12 {
		groups, _, err := sp.Split(otlp.Traces, otlptest.AgentTurn("conv-rewind", turn, 1), false)
		if err != nil {
			t.Fatal(err)
		}
		a, err := f.Append(groups["conv-rewind"])
		if err != nil {
			t.Fatal(err)
		}
		if a.Opened {
			if _, err := w.st.ImportFile(ctx, path); err != nil {
				t.Fatal(err)
			}
		} else {
			if _, err := w.st.Grow(ctx, store.SpoolGrowth(path, a)); err != nil {
				t.Fatal(err)
			}
		}
		mustSync(t, w)
	}
	fresh, _, err := Open(filepath.Join(t.TempDir(), DirName))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if _, err := fresh.Sync(ctx, w.st); err != nil {
		t.Fatal(err)
	}
	got, want := docIDs(t, w.idx), docIDs(t, fresh)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the synced index holds %d documents, a fresh one %d:\n%s\nagainst\n%s", len(got), len(want), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// docIDs lists every document of x, sorted: its id, entry and text.
func docIDs(t *testing.T, x *Index) []string {
	t.Helper()
	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), 10000, 0, false)
	req.Fields = []string{FieldEntry, FieldContent}
	res, err := x.idx.Search(req)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range res.Hits {
		out = append(out, fmt.Sprintf("%s %v %q", h.ID, h.Fields[FieldEntry], h.Fields[FieldContent]))
	}
	sort.Strings(out)
	return out
}

// TestSearchDuringSyncAndRebuild searches continuously while the index is
// synced and rebuilt: searches never fail.
func TestSearchDuringSyncAndRebuild(t *testing.T) {
	w := newWorkspace(t, filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl"))
	ctx := context.Background()
	done := make(chan error)
	go func() {
		for i := 0; i < 3; i++ {
			w.st.ImportFile(ctx, filepath.Join(sharedData, "sessions/pi/pi-cwl__large-session.jsonl"))
			if _, err := w.idx.Sync(ctx, w.st); err != nil {
				done <- err
				return
			}
			if err := w.idx.Rebuild(); err != nil {
				done <- err
				return
			}
		}
		_, err := w.idx.Sync(ctx, w.st)
		done <- err
	}()
	for searches := 0; ; searches++ {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			if searches == 0 {
				t.Fatal("no search ran during the syncs")
			}
			return
		default:
		}
		if _, err := w.idx.Search(Request{Query: "hello", Facets: true}); err != nil {
			t.Fatalf("search during a sync: %v", err)
		}
	}
}
