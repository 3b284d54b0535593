package memory_test

import (
	"context"
	"errors"
	"testing"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/extract"
)

func TestBuildProgressAndCancel(t *testing.T) {
	ps := []memory.Passage{
		{ID: "D1:1", Session: 1, Speaker: "Jon", Text: "I opened my dance studio today!"},
		{ID: "D1:2", Session: 1, Speaker: "Gina", Text: "Congrats on the dance studio, Jon!"},
		{ID: "D2:1", Session: 2, Speaker: "Jon", Text: "The studio is busy."},
	}
	var seen [][2]int
	b := &memory.Builder{Extractor: extract.Offline{}, Progress: func(done, total int) { seen = append(seen, [2]int{done, total}) }}
	if _, err := b.Build(context.Background(), "x", ps); err != nil {
		t.Fatal(err)
	}
	if last := seen[len(seen)-1]; last != [2]int{3, 3} || seen[0] != [2]int{0, 3} {
		t.Errorf("progress %v", seen)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b.Progress = func(done, total int) {
		if done == 1 {
			cancel()
		}
	}
	if _, err := b.Build(ctx, "x", ps); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled build: %v", err)
	}
}
