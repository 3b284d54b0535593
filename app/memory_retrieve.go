package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/eval"
	"ctxscope/engine/memory/explore"
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/memory/retrieve"
	"ctxscope/search/lexical"
)

// embedder returns the offline word vectors, loaded once.
func (s *Memory) embedder() (embed.Provider, error) {
	s.embOnce.Do(func() {
		emb, err := embed.Default()
		if err != nil {
			s.embErr = err
			return
		}
		s.emb = emb
	})
	return s.emb, s.embErr
}

// conversation returns the LoCoMo conversation a memory was built from,
// nil when it was not built from LoCoMo.
func (s *Memory) conversation(m *memory.Memory) (*locomo.Conversation, error) {
	if m.From.Kind != "locomo" || m.From.Path == "" {
		return nil, nil
	}
	s.locomoMu.Lock()
	defer s.locomoMu.Unlock()
	convs, ok := s.locomo[m.From.Path]
	if !ok {
		var err error
		if convs, err = locomo.ReadFile(m.From.Path); err != nil {
			return nil, fmt.Errorf("read the questions of %s: %w", m.ID, err)
		}
		s.locomo[m.From.Path] = convs
	}
	if m.From.Sample < 0 || m.From.Sample >= len(convs) {
		return nil, fmt.Errorf("%s: no conversation %d in %s", m.ID, m.From.Sample, m.From.Path)
	}
	return convs[m.From.Sample], nil
}

// Question is a LoCoMo question with its gold answer and evidence.
type Question struct {
	Index    int      `json:"index"`
	Category int      `json:"category"`
	Kind     string   `json:"kind"` // the category's name
	Question string   `json:"question"`
	Answer   string   `json:"answer"`
	Evidence []string `json:"evidence"`
}

// Questions returns the LoCoMo questions of a memory built from LoCoMo;
// none for other memories.
func (s *Memory) Questions(ctx context.Context, set string) ([]Question, error) {
	s.app.called("Memory.Questions", set)
	lm, err := s.get(ctx, set)
	if err != nil {
		return nil, err
	}
	c, err := s.conversation(lm.m)
	if err != nil || c == nil {
		return []Question{}, err
	}
	out := make([]Question, len(c.QA))
	for i, q := range c.QA {
		ans := q.Answer
		if ans == "" {
			ans = q.Adversarial
		}
		out[i] = Question{Index: i, Category: q.Category, Kind: locomo.CategoryName(q.Category), Question: q.Question, Answer: ans, Evidence: append([]string{}, q.Evidence...)}
	}
	return out, nil
}

// RetrieveRequest is a question to retrieve for: typed by the user, or a
// LoCoMo question by its index (then Question is ignored).
type RetrieveRequest struct {
	Set      string `json:"set"`
	Question string `json:"question"`
	// Index is the LoCoMo question's index, -1 for a typed question.
	Index int `json:"index"`
	// Mode is "default" (released budgets, BM25 fused), "released" (the
	// released code's dense-only retrieval) or "budgeted".
	Mode   string `json:"mode"`
	Budget int    `json:"budget"` // tokens, for the budgeted mode; 1,000 when 0
}

// RetrievedItem is a retrieved item with its provenance passages.
type RetrievedItem struct {
	retrieve.Item
	Provenance []explore.Passage `json:"provenance"`
}

// Retrieval is what the inspector shows for one question.
type Retrieval struct {
	Question string          `json:"question"`
	Index    int             `json:"index"`
	Mode     string          `json:"mode"`
	Items    []RetrievedItem `json:"items"`
	Context  string          `json:"context"`
	Tokens   int             `json:"tokens"`
	Turns    []string        `json:"turns"`
	// Gold is the evidence of a LoCoMo question with hit or miss; Answer
	// its gold answer.
	Gold   []explore.Evidence `json:"gold"`
	Answer string             `json:"answer"`
	// Recall is the share of the gold turns whose text is in the
	// context (strict).
	Recall float64 `json:"recall"`
	// Coverage is the share of the gold answer's content words the
	// context holds; nil without a gold answer that has one.
	Coverage *float64 `json:"coverage"`
	// GoldFacts are the facts the graph read from the gold turns, and
	// GoldFactsCoverage the share of the answer's words they hold: what a
	// perfect fact retriever could have given (the ceiling of memory
	// eval).
	GoldFacts         []string `json:"goldFacts"`
	GoldFactsCoverage *float64 `json:"goldFactsCoverage"`
	// Millis is the time the retrieval took in Go, the index already
	// built.
	Millis float64 `json:"millis"`
	// Strong is what passages-strong returns for the same question and
	// budget: the memory's own turn retriever with the graph and the
	// experience layer off. Beside the items by channel, it shows what
	// the two layers change.
	Strong StrongRetrieval `json:"strong"`
}

// StrongRetrieval is the passages-strong baseline's answer to a question,
// set against the memory's.
type StrongRetrieval struct {
	Tokens int `json:"tokens"`
	// Turns are the turns its context shows word for word.
	Turns []string `json:"turns"`
	// Recall is the share of the gold turns whose text its context holds
	// (strict), and Coverage the share of the answer's words, as the
	// memory's.
	Recall   float64  `json:"recall"`
	Coverage *float64 `json:"coverage"`
	// OnlyMemory are the turns the memory's context shows and its does
	// not; OnlyStrong the other way round.
	OnlyMemory []string `json:"onlyMemory"`
	OnlyStrong []string `json:"onlyStrong"`
}

// Retrieve runs the memory's retrieval for a question and explains every
// item. The first call for a memory embeds and indexes it.
func (s *Memory) Retrieve(ctx context.Context, r RetrieveRequest) (*Retrieval, error) {
	s.app.called("Memory.Retrieve", r)
	lm, err := s.get(ctx, r.Set)
	if err != nil {
		return nil, err
	}
	out := &Retrieval{Index: r.Index, Mode: r.Mode, Gold: []explore.Evidence{}, GoldFacts: []string{}}
	evidence, answer, err := s.question(lm, r, out)
	if err != nil {
		return nil, err
	}
	cfg, window, err := retrievalConfig(r.Mode, r.Budget)
	if err != nil {
		return nil, err
	}
	x, err := s.index(ctx, lm, window)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	res, err := x.Retrieve(ctx, out.Question, cfg)
	if err != nil {
		return nil, err
	}
	out.Millis = float64(time.Since(start).Microseconds()) / 1000
	out.Context, out.Tokens, out.Turns = res.Context, res.Tokens, res.Turns
	out.Items = make([]RetrievedItem, len(res.Items))
	for i, it := range res.Items {
		out.Items[i] = RetrievedItem{Item: it, Provenance: explore.Passages(lm.m, it.Passages)}
	}
	strong, err := x.Retrieve(ctx, out.Question, retrieve.PassagesOnly(cfg))
	if err != nil {
		return nil, err
	}
	shown, strongShown := shownTurns(res), shownTurns(strong)
	out.Strong = StrongRetrieval{Tokens: strong.Tokens, Turns: strongShown, OnlyMemory: missing(shown, strongShown), OnlyStrong: missing(strongShown, shown)}
	if len(evidence) > 0 {
		out.Gold = explore.Gold(lm.m, res, evidence)
		out.Recall = hitShare(out.Gold)
		out.Strong.Recall = hitShare(explore.Gold(lm.m, strong, evidence))
		scoreAnswer(out, x, res, strong, evidence, answer)
	}
	return out, nil
}

// scoreAnswer lists the facts the graph read from the gold turns and sets
// how much of the gold answer the memory's context, the baseline's and
// those facts hold (an adversarial question, answer "", has no gold
// answer to cover).
func scoreAnswer(out *Retrieval, x *retrieve.Index, res, strong *retrieve.Result, evidence []string, answer string) {
	facts := x.Evidence(evidence, true, retrieve.LayoutSessions)
	for _, it := range facts.Items {
		out.GoldFacts = append(out.GoldFacts, it.Text)
	}
	if answer == "" {
		return
	}
	out.Coverage = coverageOf(res.Context, answer)
	out.Strong.Coverage = coverageOf(strong.Context, answer)
	out.GoldFactsCoverage = coverageOf(strings.Join(out.GoldFacts, "\n"), answer)
}

func coverageOf(context, answer string) *float64 {
	c, ok := eval.AnswerCoverage(context, answer)
	if !ok {
		return nil
	}
	return &c
}

// question sets out's question: the LoCoMo question r.Index names, with
// its answer, or the one r types. It returns the question's evidence and
// gold answer ("" for an adversarial one, whose shown answer is the
// adversarial one).
func (s *Memory) question(lm *loadedMemory, r RetrieveRequest, out *Retrieval) (evidence []string, answer string, err error) {
	if r.Index < 0 {
		out.Question = strings.TrimSpace(r.Question)
		if out.Question == "" {
			return nil, "", fmt.Errorf("type a question")
		}
		if len(out.Question) > 2000 {
			return nil, "", fmt.Errorf("the question is longer than 2,000 bytes")
		}
		return nil, "", nil
	}
	c, err := s.conversation(lm.m)
	if err != nil {
		return nil, "", err
	}
	if c == nil || r.Index >= len(c.QA) {
		return nil, "", fmt.Errorf("%s has no LoCoMo question %d", r.Set, r.Index)
	}
	q := c.QA[r.Index]
	out.Question, out.Answer = q.Question, q.Answer
	if out.Answer == "" {
		out.Answer = q.Adversarial
	}
	return q.Evidence, q.Answer, nil
}

// hitShare is the share of gold turns in the context.
func hitShare(gold []explore.Evidence) float64 {
	hits := 0
	for _, g := range gold {
		if g.Hit {
			hits++
		}
	}
	return float64(hits) / float64(len(gold))
}

// missing lists the ids of a that b lacks, in a's order (never nil).
func missing(a, b []string) []string {
	in := map[string]bool{}
	for _, id := range b {
		in[id] = true
	}
	out := []string{}
	for _, id := range a {
		if !in[id] {
			out = append(out, id)
		}
	}
	return out
}

// shownTurns lists the turns a retrieval's context shows word for word
// (its passages, not the provenance of its triples and items).
func shownTurns(res *retrieve.Result) []string {
	out := []string{}
	for _, it := range res.Items {
		if it.Kind == "passage" {
			out = append(out, it.ID)
		}
	}
	return out
}

// retrievalConfig returns a mode's configuration and the passage window
// its index uses.
func retrievalConfig(mode string, budget int) (retrieve.Config, int, error) {
	switch mode {
	case "", "default":
		return retrieve.Default(), 1, nil
	case "released":
		return retrieve.Released(), 0, nil
	case "budgeted":
		if budget <= 0 {
			budget = 1000
		}
		if budget > 100000 {
			return retrieve.Config{}, 0, fmt.Errorf("budget %d is more than 100,000 tokens", budget)
		}
		return retrieve.Budgeted(budget), retrieve.DefaultKnobs().Window, nil
	}
	return retrieve.Config{}, 0, fmt.Errorf("unknown retrieval mode %q (want default, released or budgeted)", mode)
}

// index returns the memory's retrieval index for a passage window,
// building it on first use.
func (s *Memory) index(ctx context.Context, lm *loadedMemory, window int) (*retrieve.Index, error) {
	emb, err := s.embedder()
	if err != nil {
		return nil, err
	}
	lm.mu.Lock()
	defer lm.mu.Unlock()
	if x, ok := lm.indexes[window]; ok {
		return x, nil
	}
	x, err := retrieve.New(ctx, lm.m, emb, retrieve.Options{Lexical: lexical.Build, Window: window, StructuralNames: window == 0})
	if err != nil {
		return nil, err
	}
	lm.indexes[window] = x
	return x, nil
}
