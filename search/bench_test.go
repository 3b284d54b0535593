package search

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"

	"ctxscope/engine/cputime"
	"ctxscope/engine/ingest"
)

// benchMinDocs is the corpus size the indexing benchmark needs.
const benchMinDocs = 50000

// benchCorpus returns the documents of every importable shared session
// and of every LoCoMo dialogue turn, repeated under distinct ids and
// session names until there are at least benchMinDocs, and the bytes of
// text they hold.
func benchCorpus(b *testing.B) ([]Doc, int) { return benchCorpusN(b, benchMinDocs) }

func benchCorpusN(b testing.TB, minDocs int) ([]Doc, int) {
	b.Helper()
	var base []Doc
	for _, p := range sharedSessions(b) {
		ss, err := ingest.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		for t, th := range ss.Threads {
			for ord, e := range th.Entries {
				base = append(base, EntryDocs(ss.ID, t, th.ID, ord, e)...)
			}
		}
	}
	ids, by := locomoPassages(b, 0)
	for _, id := range ids {
		base = append(base, PassageDocs(id, by[id])...)
	}
	var docs []Doc
	raw := 0
	for copyN := 0; len(docs) < minDocs; copyN++ {
		for _, d := range base {
			d.ID += "~" + strconv.Itoa(copyN)
			if d.Session != "" {
				d.Session += "~" + strconv.Itoa(copyN)
			}
			if d.Set != "" {
				d.Set += "~" + strconv.Itoa(copyN)
			}
			docs = append(docs, d)
			raw += len(d.Text)
		}
	}
	return docs, raw
}

// englishOnlyMapping is the baseline: the same documents with one
// English-analysed text field, nothing stored but the keywords, no
// code-aware field.
func englishOnlyMapping() *mapping.IndexMappingImpl {
	im := mapping.NewIndexMapping()
	im.DefaultAnalyzer = en.AnalyzerName
	dm := mapping.NewDocumentMapping()
	dm.Dynamic = false
	for _, f := range keywordFields {
		fm := mapping.NewKeywordFieldMapping()
		fm.IncludeInAll, fm.IncludeTermVectors = false, false
		dm.AddFieldMappingsAt(f, fm)
	}
	dm.AddFieldMappingsAt(FieldText, textField(en.AnalyzerName))
	im.DefaultMapping = dm
	return im
}

// indexAll writes docs into a new index in dir in batches, closes it (so
// that everything is persisted) and returns the elapsed time.
func indexAll(b *testing.B, dir string, im mapping.IndexMapping, docs []Doc, baseline bool) time.Duration {
	b.Helper()
	start := time.Now()
	idx, err := bleve.NewUsing(dir, im, scorch.Name, scorch.Name, nil)
	if err != nil {
		b.Fatal(err)
	}
	const batch = 5000
	for i := 0; i < len(docs); i += batch {
		bt := idx.NewBatch()
		for _, d := range docs[i:min(i+batch, len(docs))] {
			f := d.fields()
			if baseline {
				delete(f, FieldCode)
				delete(f, FieldContent)
			}
			if err := bt.Index(d.ID, f); err != nil {
				b.Fatal(err)
			}
		}
		if err := idx.Batch(bt); err != nil {
			b.Fatal(err)
		}
	}
	if err := idx.Close(); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

func dirSize(b *testing.B, dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// BenchmarkIndexing indexes the whole corpus with the ctxscope mapping and
// with the English-only baseline, and reports documents per second, the
// ratio of the two, and each index's size relative to the raw text.
// Run it with -benchtime=1x: one iteration is a full build.
func BenchmarkIndexing(b *testing.B) {
	docs, raw := benchCorpus(b)
	im, err := newMapping()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var ours, base, oursCPU, baseCPU time.Duration
	var oursSize, baseSize int64
	for i := 0; i < b.N; i++ {
		d1, d2 := filepath.Join(b.TempDir(), "ours"), filepath.Join(b.TempDir(), "base")
		c0 := cpuTime()
		ours += indexAll(b, d1, im, docs, false)
		c1 := cpuTime()
		base += indexAll(b, d2, englishOnlyMapping(), docs, true)
		oursCPU, baseCPU = oursCPU+c1-c0, baseCPU+cpuTime()-c1
		oursSize, baseSize = dirSize(b, d1), dirSize(b, d2)
	}
	b.StopTimer()
	n := float64(len(docs) * b.N)
	b.ReportMetric(float64(len(docs)), "docs")
	b.ReportMetric(n/ours.Seconds(), "docs/s")
	b.ReportMetric(n/base.Seconds(), "baseline-docs/s")
	b.ReportMetric(n/oursCPU.Seconds(), "docs/cpu-s")
	b.ReportMetric(n/baseCPU.Seconds(), "baseline-docs/cpu-s")
	b.ReportMetric(float64(oursSize)/float64(raw), "index/raw")
	b.ReportMetric(float64(baseSize)/float64(raw), "baseline-index/raw")
	b.ReportMetric(float64(raw)/1e6, "raw-MB")
}

// benchQueries is the fixed query set of the latency benchmark.
var benchQueries = []Request{
	{Query: "loadSessionFromEntries"},
	{Query: `"loadSessionFromEntries"`},
	{Query: "getLatestCompactionEntry"},
	{Query: "tool_execution_start", Mode: ModePlain},
	{Query: "src/core/agent-session.ts", Mode: ModePlain},
	{Query: `"agent-session.ts"`, Kind: KindToolCall},
	{Query: `"run the tests"`},
	{Query: "running tests", Mode: ModePlain},
	{Query: "+tool:bash +compaction"},
	{Query: "+kind:thinking +compaction"},
	{Query: "compaction", Facets: true},
	{Query: "support group", Mode: ModePlain, Kind: KindPassage},
	{Query: "+speaker:Melanie +painting"},
	{Query: `"sunset over a lake"`},
	{Query: "Caroline adoption agency", Mode: ModePlain},
	{Query: "error", Facets: true},
	{Query: "the", Facets: true},
	{Query: "context-filter.ts"},
	{Query: "bashExecutionToText", Mode: ModePlain},
	{Query: "tests", Session: "d703a1a9-1b7b-4fb1-b512-c9738b1fe617~0"},
}

// BenchmarkQueries builds the corpus index once and runs the fixed query
// set (page of 10 hits with fragments) repeatedly, reporting the p50 and
// p95 latency over all runs, for the ctxscope index and for the same
// queries on an English-only baseline index without fragments.
func BenchmarkQueries(b *testing.B) {
	docs, _ := benchCorpus(b)
	dir := b.TempDir()
	im, _ := newMapping()
	indexAll(b, filepath.Join(dir, DirName), im, docs, false)
	markCurrent(b, filepath.Join(dir, DirName))
	x, rebuilt, err := Open(filepath.Join(dir, DirName))
	if err != nil || rebuilt {
		b.Fatalf("open the benchmark index: rebuilt %v, %v", rebuilt, err)
	}
	defer x.Close()
	if n, _ := x.DocCount(); n != uint64(len(docs)) {
		b.Fatalf("index holds %d documents, want %d", n, len(docs))
	}
	baseDir := filepath.Join(dir, "base")
	indexAll(b, baseDir, englishOnlyMapping(), docs, true)
	base, err := bleve.Open(baseDir)
	if err != nil {
		b.Fatal(err)
	}
	defer base.Close()
	var ours, baseline, noFacets []time.Duration
	perQuery := make([]time.Duration, len(benchQueries))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, q := range benchQueries {
			q.Size = 10
			start := time.Now()
			if _, err := x.Search(q); err != nil {
				b.Fatalf("%+v: %v", q, err)
			}
			ours = append(ours, time.Since(start))
			perQuery[k] += time.Since(start)
			if !q.Facets {
				noFacets = append(noFacets, time.Since(start))
			}
			bq := bleve.NewQueryStringQuery(q.Query)
			start = time.Now()
			if _, err := base.Search(bleve.NewSearchRequestOptions(bq, 10, 0, false)); err != nil {
				b.Fatal(err)
			}
			baseline = append(baseline, time.Since(start))
		}
	}
	b.StopTimer()
	for name, ds := range map[string][]time.Duration{"": ours, "baseline-": baseline, "nofacets-": noFacets} {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		b.ReportMetric(ms(ds[len(ds)/2]), name+"p50-ms")
		b.ReportMetric(ms(ds[len(ds)*95/100]), name+"p95-ms")
	}
	b.ReportMetric(float64(len(ours)), "queries")
	b.ReportMetric(ms(facetColumnsBuild(b, x)), "facet-columns-ms")
	if testing.Verbose() {
		for k, q := range benchQueries {
			fmt.Printf("%8.2f ms  %+v\n", ms(perQuery[k]/time.Duration(b.N)), q)
		}
	}
}

// facetColumnsBuild times building the facet columns of x's current
// snapshot: what the first facet query after the index changed pays on
// top of counting.
func facetColumnsBuild(b *testing.B, x *Index) time.Duration {
	adv, err := x.idx.Advanced()
	if err != nil {
		b.Fatal(err)
	}
	r, err := adv.Reader()
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	start := time.Now()
	for _, f := range facetFields {
		if _, err := buildColumn(context.Background(), r, f); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start)
}

// cpuTime returns the CPU time this process has used (cputime.Process;
// 0 where it is not measured): on a shared machine it measures the work
// independently of the waiting.
func cpuTime() time.Duration {
	d, _ := cputime.Process()
	return d
}

// markCurrent records the current mapping version in an index built by
// indexAll, so that Open keeps it.
func markCurrent(b *testing.B, dir string) {
	idx, err := bleve.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	v, _ := MappingVersion()
	if err := idx.SetInternal(keyMapping, []byte(v)); err != nil {
		b.Fatal(err)
	}
	idx.Close()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
