package store

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"testing"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/extract"
	"ctxscope/engine/memory/locomo"
)

func TestRoundTrip(t *testing.T) {
	convs, err := locomo.ReadFile("../../../../shared/data/locomo/locomo10.json")
	if err != nil {
		t.Fatal(err)
	}
	b := &memory.Builder{Extractor: extract.Offline{}, Merge: true}
	m, err := b.Build(context.Background(), "conv-30", convs[1].Passages())
	if err != nil {
		t.Fatal(err)
	}
	d := Dir(t.TempDir())
	if err := d.Save(m); err != nil {
		t.Fatal(err)
	}
	got, err := d.Load("conv-30")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Graph.Snapshot(), m.Graph.Snapshot()) || !reflect.DeepEqual(got.Passages, m.Passages) || got.Source != "offline" {
		t.Error("loaded memory differs from the saved one")
	}
	if ids, _ := d.List(); !reflect.DeepEqual(ids, []string{"conv-30"}) {
		t.Errorf("list %v", ids)
	}
	if _, err := d.Load("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("load unknown: %v", err)
	}
	if err := d.Save(&memory.Memory{ID: "../x"}); err == nil {
		t.Error("saved a memory with a path id")
	}
	if _, err := Read(bytes.NewReader([]byte("not gzip"))); err == nil {
		t.Error("read garbage")
	}
}

// FuzzRead feeds corrupted memory files to the reader.
func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	m := &memory.Memory{ID: "x", Passages: []memory.Passage{{ID: "D1:1", Text: "hi"}}}
	b := &memory.Builder{Extractor: extract.Offline{}}
	if built, err := b.Build(context.Background(), "x", []memory.Passage{{ID: "D1:1", Speaker: "A", Text: "I adopted a dog named Max."}}); err == nil {
		m = built
	}
	Write(&buf, m)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		Read(bytes.NewReader(data))
	})
}
