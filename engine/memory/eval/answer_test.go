package eval

import (
	"context"
	"ctxscope/engine/memory/embed/embedtest"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/extract"
	"ctxscope/engine/memory/llm"
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/memory/retrieve"
)

// TestRetrievalWithAnswers answers conv-30's first questions through a
// local server speaking the chat-completions API; the server replies with
// the reference answer for questions it knows (so scores are 1) and a
// wrong one otherwise, and the scores must say so.
func TestRetrievalWithAnswers(t *testing.T) {
	p := embedtest.Path(t)
	emb, err := embed.LoadSIF(p)
	if err != nil {
		t.Fatal(err)
	}
	convs, err := locomo.ReadFile("../../../testdata/shared/locomo/locomo10.json")
	if err != nil {
		t.Fatal(err)
	}
	conv := convs[1]
	conv.QA = conv.QA[:6]
	known := map[string]string{}
	for i, qa := range conv.QA {
		if i%2 == 0 {
			known[qa.Question] = qa.Answer
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		prompt := req.Messages[len(req.Messages)-1].Content
		answer := "purple elephants"
		for q, a := range known {
			if strings.Contains(prompt, "Question:\n"+q+"\n") {
				answer = a
			}
		}
		content, _ := json.Marshal(map[string]string{"answer": answer})
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"role": "assistant", "content": string(content)}}}})
	}))
	defer srv.Close()
	b := &memory.Builder{Extractor: extract.Offline{}, Embedder: emb}
	m, err := b.Build(context.Background(), conv.ID, conv.Passages())
	if err != nil {
		t.Fatal(err)
	}
	x, err := retrieve.New(context.Background(), m, emb, retrieve.Options{Window: 1})
	if err != nil {
		t.Fatal(err)
	}
	ans := llm.Answerer{Client: &llm.Client{BaseURL: srv.URL, Model: "m"}}
	qs, err := Retrieval(context.Background(), conv, x, retrieve.Budgeted(1000), nil, ans)
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range qs {
		want := 0.0
		if i%2 == 0 {
			want = 1
		}
		if q.F1 != want || q.OfficialF1 != want || q.BLEU1 != want {
			t.Errorf("%q answered %q (reference %q): F1 %v, LoCoMo %v, BLEU-1 %v; want %v", q.Question, q.Answer, q.Reference, q.F1, q.OfficialF1, q.BLEU1, want)
		}
	}
}
