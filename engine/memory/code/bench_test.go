package code

import (
	"testing"

	"ctxscope/engine/session"
)

// bigSession is the largest shared pi session repeated until it holds
// at least size bytes of source: its entries appended again with fresh
// ids, as one long session.
func bigSession(b *testing.B, size int64) (*session.Session, int64) {
	s := readShared(b, "pi/pi-cwl__before-compaction.jsonl")
	const sourceBytes = 2_370_000 // the file's size, 2.37 MB
	main := s.Main()
	orig := main.Entries
	var bytes int64
	for round := 0; bytes < size; round++ {
		for _, e := range orig {
			c := *e
			c.ID = e.ID + "-" + string(rune('a'+round%26)) + string(rune('a'+round/26))
			if round > 0 {
				main.Entries = append(main.Entries, &c)
			}
		}
		bytes += sourceBytes
	}
	return s, bytes
}

// BenchmarkReadSession10MB reads the memory of a 10 MB session (the
// largest shared pi session, repeated).
func BenchmarkReadSession10MB(b *testing.B) {
	s, bytes := bigSession(b, 10<<20)
	b.SetBytes(bytes)
	for b.Loop() {
		m := ReadSession("m", s, nil)
		if len(m.Passages) == 0 {
			b.Fatal("no passages")
		}
	}
}

// BenchmarkAppendRecord adds one record to the memory of the 10 MB
// session, as a live tail does: the time per appended entry.
func BenchmarkAppendRecord(b *testing.B) {
	s, _ := bigSession(b, 10<<20)
	r := NewReader("m", nil)
	entries := s.Main().Entries
	for _, e := range entries {
		r.Add(0, e)
	}
	i := 0
	for b.Loop() {
		e := *entries[i%len(entries)]
		e.ID = "appended-" + string(rune(i))
		r.Add(0, &e)
		i++
	}
}
