package debug

import (
	"context"
	"path/filepath"
	"testing"

	"ctxscope/engine/cwl"
	"ctxscope/engine/ingest"
)

// TestDeclaresEpisodesNeverMissesOne checks, on every thread of every
// shared real session, what the debugger relies on to skip preparing a
// declared replay: a thread DeclaresEpisodes says declares none has no
// declared episode once prepared. None of the shared sessions declares
// any, so the demo sessions, which do, are checked too: the check is not
// vacuous.
func TestDeclaresEpisodesNeverMissesOne(t *testing.T) {
	files, err := filepath.Glob("../../testdata/shared/sessions/*/*")
	if err != nil || len(files) < 10 {
		t.Fatalf("%d shared sessions: %v", len(files), err)
	}
	demo, err := filepath.Glob("../../app/demo/*.jsonl")
	if err != nil || len(demo) == 0 {
		t.Fatalf("%d demo sessions: %v", len(demo), err)
	}
	files = append(files, demo...)
	declaring, threads := 0, 0
	for _, f := range files {
		s, err := ingest.ReadFile(f)
		if err != nil {
			continue // not a session file (the directory's notes)
		}
		for i := range s.Threads {
			r, err := New(context.Background(), s, Params{Thread: i, Counter: "estimate", Episodes: string(cwl.Declared)}, nil)
			if err != nil {
				continue // a thread with no request
			}
			threads++
			has := r.Uncapped().EpisodeCount > 0
			if has {
				declaring++
			}
			if has && !DeclaresEpisodes(s, i) {
				t.Errorf("%s thread %d: %d declared episodes, yet DeclaresEpisodes says none", filepath.Base(f), i, r.Uncapped().EpisodeCount)
			}
		}
	}
	if declaring == 0 {
		t.Fatalf("none of %d threads declares episodes", threads)
	}
	t.Logf("%d threads, %d declaring episodes", threads, declaring)
}
