package cli

import (
	"context"
	"runtime"
	"sync"
	"testing"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/eval"
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/memory/retrieve"
	"ctxscope/engine/workspace"
	"ctxscope/search/lexical"
)

const locomoPath = "../../testdata/shared/locomo/locomo10.json"

var bench struct {
	once  sync.Once
	convs []*locomo.Conversation
	emb   *embed.SIF
	err   error
}

func benchSetup(b *testing.B) ([]*locomo.Conversation, *embed.SIF) {
	bench.once.Do(func() {
		bench.convs, bench.err = locomo.ReadFile(locomoPath)
		if bench.err != nil {
			return
		}
		p, err := embed.DefaultPath()
		if err != nil {
			bench.err = err
			return
		}
		bench.emb, bench.err = embed.LoadSIF(p)
	})
	if bench.err == embed.ErrNoVectors {
		b.Skip(bench.err)
	}
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.convs, bench.emb
}

// BenchmarkBuildOffline builds the memory of conversation 0 (419 turns)
// with the offline stack.
func BenchmarkBuildOffline(b *testing.B) {
	convs, emb := benchSetup(b)
	ps := convs[0].Passages()
	for b.Loop() {
		if _, err := offlineBuilder(emb, false).Build(context.Background(), "conv-26", ps); err != nil {
			b.Fatal(err)
		}
	}
}

func benchIndex(b *testing.B) (*retrieve.Index, *locomo.Conversation) {
	convs, emb := benchSetup(b)
	m, err := offlineBuilder(emb, false).Build(context.Background(), "conv-26", convs[0].Passages())
	if err != nil {
		b.Fatal(err)
	}
	x, err := retrieve.New(context.Background(), m, emb, retrieve.Options{Lexical: lexical.Build, Window: 1})
	if err != nil {
		b.Fatal(err)
	}
	return x, convs[0]
}

func benchRetrieve(b *testing.B, cfg retrieve.Config) {
	x, conv := benchIndex(b)
	i := 0
	cpu := eval.CPUTime()
	defer func() { b.ReportMetric(float64(eval.CPUTime()-cpu)/float64(b.N), "cpu-ns/op") }()
	for b.Loop() {
		if _, err := x.Retrieve(context.Background(), conv.QA[i%len(conv.QA)].Question, cfg); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkRetrieveReleased is the released code's retrieval (dense only).
func BenchmarkRetrieveReleased(b *testing.B) { benchRetrieve(b, retrieve.Released()) }

// BenchmarkRetrieveDefault adds the BM25 channel.
func BenchmarkRetrieveDefault(b *testing.B) { benchRetrieve(b, retrieve.Default()) }

// BenchmarkRetrieveBudgeted assembles a context of at most 1,000 tokens.
func BenchmarkRetrieveBudgeted(b *testing.B) {
	cfg := retrieve.Default()
	cfg.Budget, cfg.Neighbours = 1000, true
	benchRetrieve(b, cfg)
}

// BenchmarkBaselineBM25Turns is the baseline: one BM25 search over the turns, the
// yardstick for the retrieval benchmarks' ratios.
func BenchmarkBaselineBM25Turns(b *testing.B) {
	convs, _ := benchSetup(b)
	var docs []memory.Doc
	for _, p := range convs[0].Passages() {
		docs = append(docs, memory.Doc{ID: p.ID, Text: p.Stamp + " " + p.Speaker + ": " + p.Text})
	}
	x, err := lexical.New(docs)
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	cpu := eval.CPUTime()
	defer func() { b.ReportMetric(float64(eval.CPUTime()-cpu)/float64(b.N), "cpu-ns/op") }()
	for b.Loop() {
		if _, err := x.Search(convs[0].QA[i%len(convs[0].QA)].Question, 20); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkFootprint builds the offline memories of all ten LoCoMo
// conversations, saves them in a fresh workspace (database and search
// index) and indexes them for retrieval, reporting the workspace's size
// and the live heap the memories and their indexes hold.
func BenchmarkFootprint(b *testing.B) {
	convs, emb := benchSetup(b)
	for b.Loop() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		var xs []*retrieve.Index
		ws, _, err := workspace.Open(b.TempDir(), "")
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range convs {
			m, err := offlineBuilder(emb, false).Build(context.Background(), c.ID, c.Passages())
			if err != nil {
				b.Fatal(err)
			}
			if err := ws.SaveMemory(context.Background(), m); err != nil {
				b.Fatal(err)
			}
			x, err := retrieve.New(context.Background(), m, emb, retrieve.Options{Lexical: lexical.Build, Window: 1})
			if err != nil {
				b.Fatal(err)
			}
			xs = append(xs, x)
		}
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		sz, err := workspaceSize(ws)
		if err != nil {
			b.Fatal(err)
		}
		ws.Close()
		b.ReportMetric(float64(sz.Database)/1e6, "db-MB")
		b.ReportMetric(float64(sz.Index)/1e6, "index-MB")
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/1e6, "heap-MB")
		runtime.KeepAlive(xs)
	}
}
