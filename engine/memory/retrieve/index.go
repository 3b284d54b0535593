package retrieve

import (
	"context"
	"fmt"
	"strings"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/kg"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// Index is a memory prepared for retrieval: every passage, triple and
// experience item embedded and, when an index function is given, indexed
// lexically. It is safe for concurrent queries.
type Index struct {
	Mem     *memory.Memory
	emb     embed.Provider
	counter tokens.Counter

	passages layer
	triples  layer
	exps     layer

	rels      []*kg.Relation
	items     []cluster.Experience
	passageAt map[string]int   // passage id -> position
	linked    map[string][]int // entity id -> passages that contain it
	about     map[string][]int // entity id -> experience items about it
	relAt     map[string]int   // relation id -> position in rels
	factsOf   [][]int          // per passage: the relations read from it
	hints     []string         // per passage: its time hint
	lines     []string         // per passage: its rendered line
	lineUnits []int            // per passage: the line's size in counter units
	df        map[string]int   // per word: the passages that have it (for feedback)
}

// layer is one kind of retrievable text: its vectors and lexical index.
type layer struct {
	ids  []string
	vecs [][]float32
	lex  memory.Lexical
	at   map[string]int
}

// Options tune how a memory is indexed.
type Options struct {
	// Lexical builds the BM25 indexes; nil retrieves by embeddings only.
	Lexical memory.IndexFunc
	// Counter measures contexts; nil means the CWL estimate.
	Counter tokens.Counter
	// Window indexes every passage together with this many turns of the
	// same session on each side, so that a question worded like the turn
	// before an answer still finds the answer (ctxscope's addition; 0
	// indexes each turn alone, as the released code does). The passage
	// shown in the context is the turn alone either way.
	Window int
	// StructuralNames leaves out of the triple index every relation whose
	// predicate is "contains" or "about", as the released code's
	// build_triple_index does (it cannot tell the model's predicates of
	// those names from its structural edges). ctxscope keeps them by
	// default: in its graph, structural links are not relations.
	StructuralNames bool
}

// New prepares m for retrieval with embedder emb. For an embedder that
// needs centering, a memory without a common component gets one fitted
// on its passages.
func New(ctx context.Context, m *memory.Memory, emb embed.Provider, opt Options) (*Index, error) {
	if opt.Counter == nil {
		opt.Counter = tokens.Estimator{}
	}
	if err := fitCommon(ctx, m, emb); err != nil {
		return nil, err
	}
	x := &Index{Mem: m, emb: embed.ForMemory(emb, m.Common), counter: opt.Counter,
		passageAt: map[string]int{}, linked: map[string][]int{}, about: map[string][]int{}, relAt: map[string]int{}}
	pids, ptext := x.indexPassages(opt.Window)
	tids, ttext := x.indexTriples(opt.StructuralNames)
	x.renderPassages()
	x.documentFrequencies()
	eids, etext := x.indexItems()
	var err error
	if x.passages, err = newLayer(ctx, x.emb, opt.Lexical, pids, ptext); err != nil {
		return nil, fmt.Errorf("passages: %w", err)
	}
	if x.triples, err = newLayer(ctx, x.emb, opt.Lexical, tids, ttext); err != nil {
		return nil, fmt.Errorf("triples: %w", err)
	}
	if x.exps, err = newLayer(ctx, x.emb, opt.Lexical, eids, etext); err != nil {
		return nil, fmt.Errorf("experiences: %w", err)
	}
	return x, nil
}

func fitCommon(ctx context.Context, m *memory.Memory, emb embed.Provider) error {
	if m.Common != nil || !embed.NeedsCentering(emb) || len(m.Passages) == 0 {
		return nil
	}
	texts := make([]string, len(m.Passages))
	for i, p := range m.Passages {
		texts[i] = p.Text
	}
	common, err := embed.FitCommon(ctx, emb, texts)
	m.Common = common
	return err
}

// indexPassages maps passages and their entities and returns the texts to
// index.
func (x *Index) indexPassages(w int) (ids, texts []string) {
	for i, p := range x.Mem.Passages {
		x.passageAt[p.ID] = i
		ids = append(ids, p.ID)
		texts = append(texts, window(x.Mem.Passages, i, w))
		for _, e := range x.Mem.Graph.Contains(p.ID) {
			x.linked[e] = append(x.linked[e], i)
		}
	}
	return ids, texts
}

// indexTriples lists the relations to retrieve and their texts.
func (x *Index) indexTriples(structuralNames bool) (ids, texts []string) {
	x.factsOf = make([][]int, len(x.Mem.Passages))
	for _, r := range x.Mem.Graph.Relations() {
		if structuralNames && (r.Predicate == "contains" || r.Predicate == "about") {
			continue
		}
		x.relAt[r.ID] = len(x.rels)
		for _, p := range r.Passages {
			if i, ok := x.passageAt[p]; ok {
				x.factsOf[i] = append(x.factsOf[i], len(x.rels))
			}
		}
		x.rels = append(x.rels, r)
		ids = append(ids, r.ID)
		texts = append(texts, x.tripleText(r))
	}
	return ids, texts
}

// renderPassages precomputes every passage's time hint, line and size.
func (x *Index) renderPassages() {
	n := len(x.Mem.Passages)
	x.hints, x.lines, x.lineUnits = make([]string, n), make([]string, n), make([]int, n)
	msg := &session.Message{Role: session.RoleUser}
	for i, p := range x.Mem.Passages {
		x.hints[i] = x.timeHint(p.ID)
		x.lines[i] = x.renderPassage(i)
		b := session.Block{Type: session.BlockText, Text: "- " + x.lines[i] + "\n"}
		x.lineUnits[i] = x.counter.Units(msg, &b)
	}
}

// indexItems links experience items to the entities of their sources
// (the reference's "about" edges) and returns their texts.
func (x *Index) indexItems() (ids, texts []string) {
	if x.Mem.Experience != nil {
		x.items = x.Mem.Experience.Items()
	}
	for i, it := range x.items {
		ids = append(ids, it.ID)
		texts = append(texts, it.Content)
		seen := map[string]bool{}
		for _, s := range it.Sources {
			for _, e := range x.Mem.Graph.Contains(s) {
				if !seen[e] {
					seen[e] = true
					x.about[e] = append(x.about[e], i)
				}
			}
		}
	}
	return ids, texts
}

func newLayer(ctx context.Context, emb embed.Provider, lex memory.IndexFunc, ids, texts []string) (layer, error) {
	l := layer{ids: ids, at: make(map[string]int, len(ids))}
	for i, id := range ids {
		l.at[id] = i
	}
	if len(texts) == 0 {
		return l, nil
	}
	var err error
	if l.vecs, err = emb.Embed(ctx, texts); err != nil {
		return l, err
	}
	if lex != nil {
		docs := make([]memory.Doc, len(ids))
		for i := range ids {
			docs[i] = memory.Doc{ID: ids[i], Text: texts[i]}
		}
		if l.lex, err = lex(ctx, docs); err != nil {
			return l, err
		}
	}
	return l, nil
}

// tripleText is what the triple index embeds: "subject predicate object",
// without time or condition, as the reference does.
func (x *Index) tripleText(r *kg.Relation) string {
	return x.name(r.Subject) + " " + r.Predicate + " " + x.name(r.Object)
}

func (x *Index) name(id string) string {
	if e, ok := x.Mem.Graph.Entity(id); ok {
		return e.Name
	}
	return id
}

// Tokens counts text with the index's token counter.
func (x *Index) Tokens(text string) int { return CountTokens(x.counter, text) }

// CountTokens counts text as one user message's text with counter c.
func CountTokens(c tokens.Counter, text string) int {
	if strings.TrimSpace(text) == "" {
		return 0
	}
	return countMessage(c, text)
}

// window returns passage i's indexed text: the turn with its speaker,
// followed by up to w turns of the same session before and after it.
func window(ps []memory.Passage, i, w int) string {
	var b strings.Builder
	b.WriteString(ps[i].Speaker + ": " + ps[i].Text)
	for d := 1; d <= w; d++ {
		for _, j := range []int{i - d, i + d} {
			if j >= 0 && j < len(ps) && ps[j].Session == ps[i].Session {
				b.WriteString("\n" + ps[j].Text)
			}
		}
	}
	return b.String()
}

// Len returns how many passages, triples and experience items the index
// holds.
func (x *Index) Len() (passages, triples, items int) {
	return len(x.Mem.Passages), len(x.rels), len(x.items)
}
