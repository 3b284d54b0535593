package eval

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/memory/retrieve"
	"ctxscope/engine/tokens"
)

// Answerer answers a question from an assembled context.
type Answerer interface {
	Answer(ctx context.Context, context_, question string, category int, adversarial string) (string, error)
}

// NotMentioned is the reference answer of adversarial questions.
const NotMentioned = "Not mentioned in the conversation"

// Retrieval scores the retrieval of every question of conv in categories
// cats (all when empty) against index x and, when ans is not nil, the
// answers it gives from each context.
func Retrieval(ctx context.Context, conv *locomo.Conversation, x *retrieve.Index, cfg retrieve.Config, cats []int, ans Answerer) ([]Question, error) {
	var out []Question
	text := turnTexts(conv)
	for i, qa := range conv.QA {
		if !wanted(qa.Category, cats) {
			continue
		}
		q := questionOf(conv, i)
		start, cpu := time.Now(), CPUTime()
		res, err := x.Retrieve(ctx, qa.Question, cfg)
		q.Latency, q.CPU = time.Since(start), CPUTime()-cpu
		if err != nil {
			return nil, err
		}
		q.scoreContext(res, text, qa.Answer)
		var shown []string
		for _, it := range res.Items {
			if it.Kind == "passage" {
				shown = append(shown, it.ID)
			}
		}
		q.ScorePassages(shown)
		if ans != nil {
			if err := answer(ctx, ans, &q, res.Context, qa); err != nil {
				return nil, err
			}
		}
		out = append(out, q)
	}
	return out, nil
}

// questionOf is question i of conv, unscored.
func questionOf(conv *locomo.Conversation, i int) Question {
	qa := conv.QA[i]
	return Question{Sample: conv.ID, Index: i, Category: qa.Category, Question: qa.Question, Evidence: qa.Evidence}
}

// scoreContext scores the context res assembled: its tokens, the turns
// it stands for, the gold turns whose text it holds, and how much of the
// answer.
func (q *Question) scoreContext(res *retrieve.Result, text func(string) (string, bool), answer string) {
	q.Tokens = res.Tokens
	q.Score(res.Turns)
	q.ScoreStrict(res.Context, text)
	q.ScoreCoverage(res.Context, answer)
}

// answer asks ans and scores the answer three ways.
func answer(ctx context.Context, ans Answerer, q *Question, context_ string, qa locomo.Question) error {
	a, err := ans.Answer(ctx, context_, qa.Question, qa.Category, qa.Adversarial)
	if err != nil {
		return fmt.Errorf("answer %s #%d: %w", q.Sample, q.Index, err)
	}
	q.Answer, q.Reference = a, qa.Answer
	if qa.Category == locomo.Adversarial {
		q.Reference = NotMentioned
	}
	q.F1, q.BLEU1 = F1(a, q.Reference), BLEU1(a, q.Reference)
	q.OfficialF1 = OfficialF1(a, q.Reference, qa.Category)
	return nil
}

func wanted(c int, cats []int) bool {
	if len(cats) == 0 {
		return true
	}
	for _, x := range cats {
		if x == c {
			return true
		}
	}
	return false
}

// Baseline is plain BM25 over a conversation's turns, each indexed with
// its session date and speaker: the top K turns, or (when Budget > 0) as
// many top turns as fit in Budget tokens rendered like context passages.
type Baseline struct {
	K      int
	Budget int
	// Layout renders the packed turns as the memory's contexts are
	// rendered (retrieve.LayoutSessions groups them by session), so that
	// both spend the budget on the same form.
	Layout string
}

// BM25 scores the baseline on conv with lexical index function lex.
func (b Baseline) BM25(conv *locomo.Conversation, lex memory.IndexFunc, cats []int) ([]Question, error) {
	ps := conv.Passages()
	docs := make([]memory.Doc, len(ps))
	line := map[string]string{}
	for i, p := range ps {
		docs[i] = memory.Doc{ID: p.ID, Text: p.Stamp + " " + p.Speaker + ": " + p.Text}
		line[p.ID] = "- [" + p.Stamp + " | " + p.Speaker + "] " + p.Text + "\n"
	}
	idx, err := lex(context.Background(), docs)
	if err != nil {
		return nil, err
	}
	text := turnTexts(conv)
	var out []Question
	for i, qa := range conv.QA {
		if !wanted(qa.Category, cats) {
			continue
		}
		q := Question{Sample: conv.ID, Index: i, Category: qa.Category, Question: qa.Question, Evidence: qa.Evidence}
		start, cpu := time.Now(), CPUTime()
		k := b.K
		if b.Budget > 0 {
			k = len(ps)
		}
		hits, err := idx.Search(qa.Question, k)
		q.Latency, q.CPU = time.Since(start), CPUTime()-cpu
		if err != nil {
			return nil, err
		}
		var ids []string
		ctx := ""
		if b.Budget > 0 {
			ids, ctx = b.pack(ps, hits)
			q.Tokens = retrieve.CountTokens(tokens.Estimator{}, ctx)
		} else {
			for _, h := range hits {
				ids, ctx = append(ids, h.ID), ctx+line[h.ID]
			}
		}
		q.ScoreStrict(ctx, text)
		q.ScoreCoverage(ctx, qa.Answer)
		q.Score(ids)
		q.ScorePassages(ids)
		out = append(out, q)
	}
	return out, nil
}

// pack packs the turns hits name, best first, into the baseline's budget
// in its layout, and returns those it packed and the context they make.
func (b Baseline) pack(ps []memory.Passage, hits []memory.Hit) (ids []string, ctx string) {
	pack := newPacking(ps, b.Layout)
	misses := 0
	for _, h := range hits {
		next := pack.with(h.ID)
		if retrieve.CountTokens(tokens.Estimator{}, next) > b.Budget {
			// A shorter turn further down may still fit, as the memory's
			// assembly also tries.
			if misses++; misses >= maxMisses {
				break
			}
			continue
		}
		misses = 0
		pack.add(h.ID)
		ctx = next
		ids = append(ids, h.ID)
	}
	return ids, ctx
}

// maxMisses ends the packing after this many turns in a row did not fit,
// as the memory's assembly does.
const maxMisses = 64

// packing renders the turns a baseline has packed so far, in its layout.
type packing struct {
	ps     []memory.Passage
	at     map[string]int
	layout string
	chosen []int
}

func newPacking(ps []memory.Passage, layout string) *packing {
	at := make(map[string]int, len(ps))
	for i, p := range ps {
		at[p.ID] = i
	}
	return &packing{ps: ps, at: at, layout: layout}
}

func (p *packing) add(id string) { p.chosen = append(p.chosen, p.at[id]) }

// with renders the packed turns and id.
func (p *packing) with(id string) string {
	idx := append(append([]int(nil), p.chosen...), p.at[id])
	var b strings.Builder
	if p.layout != retrieve.LayoutSessions {
		for _, i := range idx {
			q := p.ps[i]
			b.WriteString("- [" + q.Stamp + " | " + q.Speaker + "] " + q.Text + "\n")
		}
		return b.String()
	}
	sort.Ints(idx)
	b.WriteString("Conversation excerpts, oldest first:\n")
	last := -1
	for _, i := range idx {
		q := p.ps[i]
		if q.Session != last {
			b.WriteString("[" + q.Stamp + "]\n")
			last = q.Session
		}
		b.WriteString(q.Speaker + ": " + q.Text + "\n")
	}
	return b.String()
}
