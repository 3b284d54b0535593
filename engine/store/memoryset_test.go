package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

func TestReplaceMemorySet(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	first := MemoryData{
		Metadata: []byte(`{"speakers":["Caroline"]}`),
		Passages: []Passage{{ID: "D1:1", Text: "hi", Speaker: "Caroline", Session: "1", Time: "2023-05-08T13:56:00Z"}},
		Entities: []Entity{{ID: "e1", Name: "Caroline", Source: "extracted", Aliases: []string{}, Metadata: []byte(`{}`)}},
		Contains: []Contains{{Passage: "D1:1", Entity: "e1", Position: 0}},
	}
	if err := s.ReplaceMemorySet(ctx, "conv-26", "locomo", first); err != nil {
		t.Fatal(err)
	}
	second := MemoryData{
		Metadata: []byte(`{"speakers":["Melanie"]}`),
		Passages: []Passage{{ID: "D1:2", Text: "hello", Speaker: "Melanie", Session: "1"}},
		Entities: []Entity{
			{ID: "e2", Name: "Melanie", Source: "extracted", Aliases: []string{}, Metadata: []byte(`{}`)},
			{ID: "e3", Name: "pottery", Source: "reviewed", Aliases: []string{}, Metadata: []byte(`{}`)},
		},
		Relations: []Relation{{ID: "r1", Source: "e2", Target: "e3", Type: "likes", Session: "1", QAID: "D1:2", PassageID: "D1:2", Origin: "extracted", Metadata: []byte(`{}`)}},
		// Positions, not entity ids, order a passage's links.
		Contains:    []Contains{{Passage: "D1:2", Entity: "e3", Position: 0}, {Passage: "D1:2", Entity: "e2", Position: 1}},
		Clusters:    []Cluster{{ID: "c1", CenterText: "pottery", CenterIDs: []string{}, Metadata: []byte(`{}`)}},
		Experiences: []Experience{{ID: "c1.x1", Cluster: "c1", Type: "preference", Content: "Melanie likes pottery", SourceQAIDs: []string{"D1:2"}, Metadata: []byte(`{}`)}},
	}
	if err := s.ReplaceMemorySet(ctx, "conv-26", "locomo", second); err != nil {
		t.Fatal(err)
	}
	set, got, err := s.MemorySetData(ctx, "conv-26")
	if err != nil {
		t.Fatal(err)
	}
	if set.Revision != 3 || set.Kind != "locomo" {
		t.Errorf("set %+v: want revision 3 (created at 1, two replaces)", set)
	}
	if !reflect.DeepEqual(got, second) {
		t.Errorf("read back:\n got  %+v\n want %+v", got, second)
	}
	if _, err := s.ResolveEntity(ctx, "conv-26", "Caroline"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the replaced set still resolves Caroline: %v", err)
	}
	if rev, err := s.MemorySetRevision(ctx, "conv-26"); err != nil || rev != 3 {
		t.Errorf("revision %d, %v", rev, err)
	}
	if _, _, err := s.MemorySetData(ctx, "none"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown set: %v", err)
	}
	if err := s.ReplaceMemorySet(ctx, " ", "x", MemoryData{}); err == nil {
		t.Error("an empty name was accepted")
	}
}
