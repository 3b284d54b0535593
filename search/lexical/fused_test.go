package lexical

import (
	"context"
	"ctxscope/engine/memory/embed/embedtest"
	"testing"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/eval"
	"ctxscope/engine/memory/extract"
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/memory/retrieve"
)

// TestFusionImprovesRecall runs the memory's retrieval on conv-26 with
// this package's BM25 fused in, and without: the fused ranking must find
// more evidence, and its explanations must carry the BM25 part.
func TestFusionImprovesRecall(t *testing.T) {
	p := embedtest.Path(t)
	emb, err := embed.LoadSIF(p)
	if err != nil {
		t.Fatal(err)
	}
	convs, err := locomo.ReadFile("../../testdata/shared/locomo/locomo10.json")
	if err != nil {
		t.Fatal(err)
	}
	b := &memory.Builder{Extractor: extract.Offline{}, Embedder: emb, Writer: cluster.Offline{}, Config: cluster.PaperConfig(), Merge: true}
	m, err := b.Build(context.Background(), "conv-26", convs[0].Passages())
	if err != nil {
		t.Fatal(err)
	}
	x, err := retrieve.New(context.Background(), m, emb, retrieve.Options{Lexical: Build})
	if err != nil {
		t.Fatal(err)
	}
	cats := []int{1, 2, 3, 4}
	dense, err := eval.Retrieval(context.Background(), convs[0], x, retrieve.Released(), cats, nil)
	if err != nil {
		t.Fatal(err)
	}
	fused, err := eval.Retrieval(context.Background(), convs[0], x, retrieve.Default(), cats, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, f := eval.Summarize(dense).Overall, eval.Summarize(fused).Overall
	if f.Passage <= d.Passage || f.Recall <= d.Recall {
		t.Errorf("fused recall %.3f (verbatim %.3f) not above dense %.3f (%.3f)", f.Recall, f.Passage, d.Recall, d.Passage)
	}
	res, err := x.Retrieve(context.Background(), "When did Caroline go to the LGBTQ support group?", retrieve.Default())
	if err != nil {
		t.Fatal(err)
	}
	if w := res.Items[0].Why; w.Lexical != 1 || w.Score <= 0 {
		t.Errorf("top passage explanation %+v lacks the BM25 part", w)
	}
}
