package tokens

import (
	"os"
	"strings"
	"testing"

	"ctxscope/engine/ingest/pi"
	"ctxscope/engine/session"
)

// benchMessages loads the messages of the largest shared pi session and
// the number of content bytes they hold.
func benchMessages(b *testing.B) ([]*session.Message, int64) {
	b.Helper()
	f, err := os.Open("../../testdata/shared/sessions/pi/pi-cwl__before-compaction.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	s, err := pi.Importer{}.Import(f, "bench.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var msgs []*session.Message
	var n int64
	for _, e := range s.Main().Entries {
		if e.Message == nil {
			continue
		}
		msgs = append(msgs, e.Message)
		for _, bl := range e.Message.Blocks {
			n += int64(len(bl.Text) + len(bl.Arguments) + len(bl.ToolName))
			for _, c := range bl.Content {
				n += int64(len(c.Text))
			}
		}
	}
	return msgs, n
}

// benchCount measures first-time counting (a fresh ledger each round), in
// MB of message content per second.
func benchCount(b *testing.B, name string) {
	c, err := ByName(name)
	if err != nil {
		b.Fatal(err)
	}
	msgs, n := benchMessages(b)
	b.SetBytes(n)
	for b.Loop() {
		l := NewLedger(c)
		if l.Total(msgs) == 0 {
			b.Fatal("no tokens")
		}
	}
}

func BenchmarkCountEstimate(b *testing.B) { benchCount(b, "estimate") }
func BenchmarkCountO200k(b *testing.B)    { benchCount(b, "o200k") }
func BenchmarkCountCl100k(b *testing.B)   { benchCount(b, "cl100k") }

// BenchmarkRecountCached measures counting again with a warm ledger: what
// every re-replay pays.
func BenchmarkRecountCached(b *testing.B) {
	c, _ := BPE("o200k_base")
	msgs, n := benchMessages(b)
	l := NewLedger(c)
	l.Total(msgs)
	b.SetBytes(n)
	for b.Loop() {
		l.Total(msgs)
	}
}

// benchReference counts the same messages' texts with tiktoken-go, the
// baseline the BPE counters are measured against in the same run.
func benchReference(b *testing.B, enc string) {
	ref := referenceEncoding(b, enc)
	msgs, n := benchMessages(b)
	var texts []string
	for _, m := range msgs {
		for i := range m.Blocks {
			texts = appendTexts(texts, &m.Blocks[i])
		}
	}
	b.SetBytes(n)
	for b.Loop() {
		total := 0
		for _, s := range texts {
			total += len(ref.EncodeOrdinary(s))
		}
		if total == 0 {
			b.Fatal("no tokens")
		}
	}
}

func BenchmarkCountO200kTiktokenGo(b *testing.B)  { benchReference(b, "o200k_base") }
func BenchmarkCountCl100kTiktokenGo(b *testing.B) { benchReference(b, "cl100k_base") }

// BenchmarkCountLongRun counts a 1 MB run of one letter, the worst case of
// byte-pair merging (one piece the length of the input), beside ordinary
// session text in BenchmarkCountO200k and BenchmarkCountCl100k.
func BenchmarkCountLongRun(b *testing.B) {
	run := strings.Repeat("a", 1<<20)
	for _, enc := range []string{"o200k_base", "cl100k_base"} {
		b.Run(enc, func(b *testing.B) {
			c := counterFor(b, enc)
			b.SetBytes(int64(len(run)))
			for b.Loop() {
				if c.Count(run) == 0 {
					b.Fatal("no tokens")
				}
			}
		})
	}
}
