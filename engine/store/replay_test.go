package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestReplayCache(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	lines := splitLines(t, filepath.Join(sharedData, "sessions/pi/pi-cwl__large-session.jsonl"))
	live := filepath.Join(t.TempDir(), "live.jsonl")
	writeLines(t, live, lines, len(lines)-10)
	key := mustImport(t, s, live).Sessions[0].Key
	k := ReplayKey{Session: key, Policy: "paper", Tau: 80000, Tokenizer: "o200k", EpisodeMode: "delimiter", EngineVersion: "1"}
	if err := s.PutReplay(ctx, ReplayRun{Key: k, Summary: []byte(`{"evicted":3}`), Timeline: []byte(`[1,2,3]`)}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		key  ReplayKey
		hit  bool
	}{
		{"same key", k, true},
		{"other tau", func() ReplayKey { x := k; x.Tau = 150000; return x }(), false},
		{"other policy", func() ReplayKey { x := k; x.Policy = "reference"; return x }(), false},
		{"other tokenizer", func() ReplayKey { x := k; x.Tokenizer = "estimate"; return x }(), false},
		{"other episode mode", func() ReplayKey { x := k; x.EpisodeMode = "none"; return x }(), false},
		{"other engine", func() ReplayKey { x := k; x.EngineVersion = "2"; return x }(), false},
	}
	for _, tc := range tests {
		r, ok, err := s.Replay(ctx, tc.key)
		if err != nil || ok != tc.hit {
			t.Errorf("%s: hit %v, err %v; want hit %v", tc.name, ok, err, tc.hit)
		}
		if ok && (string(r.Summary) != `{"evicted":3}` || string(r.Timeline) != `[1,2,3]`) {
			t.Errorf("%s: got %s %s", tc.name, r.Summary, r.Timeline)
		}
	}
	k2 := k
	k2.EngineVersion = "0"
	s.PutReplay(ctx, ReplayRun{Key: k2, Summary: []byte(`{}`), Timeline: []byte(`[]`)})
	if n, err := s.PruneReplays(ctx, "1"); err != nil || n != 1 {
		t.Fatalf("prune: %d %v, want 1 run of engine 0", n, err)
	}
	writeLines(t, live, lines, len(lines))
	if res := mustImport(t, s, live); res.Action != ActionAppended {
		t.Fatalf("append: %s", res.Action)
	}
	if _, ok, _ := s.Replay(ctx, k); ok {
		t.Fatal("a replay of the shorter session survived the append")
	}
	if err := s.PutReplay(ctx, ReplayRun{Key: ReplayKey{Session: "nope"}}); err == nil {
		t.Fatal("replay of a missing session stored")
	}
	os.Remove(live)
}

func TestEpisodesAndAnnotationsAndSettings(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	key := mustImport(t, s, filepath.Join(sharedData, "sessions/pi/agent-sessions__pi-v3-small.jsonl")).Sessions[0].Key
	eps := []Episode{{Thread: "main", Name: "read-config", Kind: "expl", Description: "find the config loader", StartEntry: "a", EndEntry: "b", Completed: true}}
	if err := s.PutEpisodes(ctx, key, "annotator:me", eps); err != nil {
		t.Fatal(err)
	}
	got, err := s.Episodes(ctx, key)
	if err != nil || len(got) != 1 || got[0].Name != "read-config" || got[0].Origin != "annotator:me" || got[0].Dependencies == nil {
		t.Fatalf("episodes: %+v %v", got, err)
	}
	yes, no := true, false
	id, err := s.PutAnnotation(ctx, Annotation{Scope: "conv-26", Question: "When did Caroline go?", Item: "p1", Annotator: "me", Helpful: &yes, Sufficient: &no, Notes: "date only"})
	if err != nil {
		t.Fatal(err)
	}
	s.PutAnnotation(ctx, Annotation{Scope: "other", Question: "q", Item: "i", Annotator: "me"})
	as, err := s.Annotations(ctx, "conv-26")
	if err != nil || len(as) != 1 || as[0].ID != id || *as[0].Helpful != true || *as[0].Sufficient != false || as[0].Time.IsZero() {
		t.Fatalf("annotations: %+v %v", as, err)
	}
	if all, _ := s.Annotations(ctx, ""); len(all) != 2 || all[1].Helpful != nil {
		t.Fatalf("all annotations: %+v", all)
	}
	if err := s.DeleteAnnotation(ctx, id); err != nil {
		t.Fatal(err)
	}
	var v struct{ Tau int }
	if ok, err := s.Setting(ctx, "replay", &v); ok || err != nil {
		t.Fatalf("missing setting: %v %v", ok, err)
	}
	s.PutSetting(ctx, "replay", map[string]int{"Tau": 80000})
	s.PutSetting(ctx, "replay", map[string]int{"Tau": 90000})
	if ok, err := s.Setting(ctx, "replay", &v); !ok || err != nil || v.Tau != 90000 {
		t.Fatalf("setting: %v %v %+v", ok, err, v)
	}
}
