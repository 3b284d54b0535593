package eval

import (
	"context"
	"fmt"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/memory/retrieve"
)

// Suite is the evaluation the memory is held to: at each budget, the
// memory's budgeted context and BM25 over whole turns packed into the same
// budget, scored strictly on the same questions in the same run.
type Suite struct {
	Budgets []int
	// Config holds the retrieval knobs; its Budget is set per row.
	Config retrieve.Config
	// Window is the passage index window of the memory's index.
	Window  int
	Lexical memory.IndexFunc
	Emb     embed.Provider
	// Compat adds the released code's fixed-budget retrieval as a
	// diagnostic row.
	Compat bool
	// Baseline adds the bm25-packed row at each budget.
	Baseline bool
	// Strong adds the passages-strong row at each budget: the memory's
	// own turn retriever (its window, speaker boost and dense fusion)
	// with the graph and the experience layer off, the strongest simple
	// baseline.
	Strong bool
	// Ablations adds, at the largest budget, the memory with each of its
	// parts off in turn (see Ablations).
	Ablations bool
	// Ceilings adds the two ceiling rows (see Ceiling): the gold turns,
	// and the facts the graph read from them.
	Ceilings bool
	// Indexes, when not nil, keeps the indexes Run builds, by
	// conversation and window, for later runs (a tuning's).
	Indexes map[string]*retrieve.Index
}

// index returns the memory index of conversation id with window, building
// it unless the suite keeps it already.
func (s Suite) index(ctx context.Context, id string, m *memory.Memory, window int) (*retrieve.Index, error) {
	key := fmt.Sprintf("%s/%d", id, window)
	if x, ok := s.Indexes[key]; ok {
		return x, nil
	}
	x, err := retrieve.New(ctx, m, s.Emb, retrieve.Options{Lexical: s.Lexical, Window: window})
	if err == nil && s.Indexes != nil {
		s.Indexes[key] = x
	}
	return x, err
}

// Row is one configuration's results over the conversations evaluated.
type Row struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"` // "memory", "bm25-packed", "passages-strong", "ablation", "released" or "ceiling"
	Budget int    `json:"budget,omitempty"`
	// Ablation is the part an ablation row turns off.
	Ablation string `json:"ablation,omitempty"`
	// Results are in conversation order, and within a conversation in
	// question order, so that rows pair question by question.
	Results []Question `json:"-"`
}

// BaselineName is the name of the baseline rows.
const BaselineName = "bm25-packed"

// StrongName is the name of the passages-strong rows.
const StrongName = "passages-strong"

// Ablation is the memory with one of its parts off: a change to its
// retrieval knobs, or to its index's window.
type Ablation struct {
	Name   string
	Off    func(*retrieve.Config)
	Window bool // the neighbour window off (each turn indexed alone)
}

// Ablations are the parts of the memory an ablation turns off, one at a
// time.
var Ablations = []Ablation{
	{Name: "graph off", Off: retrieve.GraphOff},
	{Name: "experiences off", Off: retrieve.ExperiencesOff},
	{Name: "speaker boost off", Off: func(c *retrieve.Config) { c.SpeakerBoost = 0 }},
	{Name: "dense off (BM25 only)", Off: func(c *retrieve.Config) { c.LexicalWeight = 1 }},
	{Name: "neighbour window off", Window: true},
}

// Run scores every row on convs, whose memories are mems.
func (s Suite) Run(ctx context.Context, convs []*locomo.Conversation, mems []*memory.Memory) ([]Row, error) {
	rows := s.rows()
	for n, conv := range convs {
		x, err := s.index(ctx, conv.ID, mems[n], s.Window)
		if err != nil {
			return nil, err
		}
		var compat *retrieve.Index
		for k := range rows {
			var qs []Question
			switch rows[k].Kind {
			case "released":
				if compat == nil {
					if compat, err = retrieve.New(ctx, mems[n], s.Emb, retrieve.Options{Lexical: s.Lexical, StructuralNames: true}); err != nil {
						return nil, err
					}
				}
				qs, err = Retrieval(ctx, conv, compat, retrieve.Released(), nil, nil)
			case "memory", StrongName:
				cfg := s.Config
				if rows[k].Kind == StrongName {
					cfg = retrieve.PassagesOnly(cfg)
				}
				cfg.Budget = rows[k].Budget
				qs, err = Retrieval(ctx, conv, x, cfg, nil, nil)
			case "ablation":
				qs, err = s.ablated(ctx, conv, mems[n], x, rows[k])
			case "ceiling":
				qs = Ceiling(conv, x, rows[k].Name == GoldFactsName, s.Config.Layout)
			case BaselineName:
				qs, err = Baseline{Budget: rows[k].Budget, Layout: s.Config.Layout}.BM25(conv, s.Lexical, nil)
			}
			if err != nil {
				return nil, err
			}
			rows[k].Results = append(rows[k].Results, qs...)
		}
	}
	return rows, nil
}

// rows returns the suite's rows, unscored: the released code's when
// asked, then at each budget the memory and its baselines, then the
// ceilings and the ablations.
func (s Suite) rows() []Row {
	var rows []Row
	if s.Compat {
		rows = append(rows, Row{Name: "released (dense only)", Kind: "released"})
	}
	largest := 0
	for _, b := range s.Budgets {
		rows = append(rows, Row{Name: fmt.Sprintf("memory ≤%d", b), Kind: "memory", Budget: b})
		if s.Strong {
			rows = append(rows, Row{Name: fmt.Sprintf("%s ≤%d", StrongName, b), Kind: StrongName, Budget: b})
		}
		if s.Baseline {
			rows = append(rows, Row{Name: fmt.Sprintf("%s ≤%d", BaselineName, b), Kind: BaselineName, Budget: b})
		}
		largest = max(largest, b)
	}
	if s.Ceilings {
		rows = append(rows, Row{Name: GoldTurnsName, Kind: "ceiling"}, Row{Name: GoldFactsName, Kind: "ceiling"})
	}
	if s.Ablations {
		for _, a := range Ablations {
			rows = append(rows, Row{Name: fmt.Sprintf("memory, %s ≤%d", a.Name, largest), Kind: "ablation", Budget: largest, Ablation: a.Name})
		}
	}
	return rows
}

// ablated scores row, an ablation, on conv whose memory is m and index x.
func (s Suite) ablated(ctx context.Context, conv *locomo.Conversation, m *memory.Memory, x *retrieve.Index, row Row) ([]Question, error) {
	cfg := s.Config
	cfg.Budget = row.Budget
	for _, a := range Ablations {
		if a.Name != row.Ablation {
			continue
		}
		if a.Off != nil {
			a.Off(&cfg)
		}
		if a.Window {
			var err error
			if x, err = s.index(ctx, conv.ID, m, 0); err != nil {
				return nil, err
			}
		}
		return Retrieval(ctx, conv, x, cfg, nil, nil)
	}
	return nil, fmt.Errorf("eval: no ablation %q", row.Ablation)
}

// turnTexts returns a lookup of the conversation's turn texts by id.
func turnTexts(conv *locomo.Conversation) func(string) (string, bool) {
	m := map[string]string{}
	for _, p := range conv.Passages() {
		m[p.ID] = p.Text
	}
	return func(id string) (string, bool) {
		t, ok := m[id]
		return t, ok
	}
}

// Of returns the results of the conversations in samples (by id).
func (r Row) Of(samples map[string]bool) []Question {
	var out []Question
	for _, q := range r.Results {
		if samples[q.Sample] {
			out = append(out, q)
		}
	}
	return out
}

// Comparison is one row's figure against another's at one budget, per
// category and over categories 1–4, with paired bootstrap intervals of
// the difference: strict recall, unless Metric says "coverage".
type Comparison struct {
	Budget     int              `json:"budget"`
	Of         string           `json:"of,omitempty"`      // the row compared ("" for the memory)
	Against    string           `json:"against,omitempty"` // the row it is compared with ("" for bm25-packed)
	Metric     string           `json:"metric,omitempty"`  // "strict" ("" is the same) or "coverage"
	ByCategory map[int]Interval `json:"byCategory"`
	Overall    Interval         `json:"overall"`
}

// Compare pairs two rows' results question by question (they must come
// from the same questions in the same order) and bootstraps the
// difference in strict recall.
func Compare(budget int, mem, base []Question) (Comparison, error) {
	return CompareBy(budget, mem, base, "strict")
}

// CompareBy is Compare on metric: "strict" recall over the questions with
// evidence, or answer "coverage" over those whose answer has a content
// word.
func CompareBy(budget int, mem, base []Question, metric string) (Comparison, error) {
	c := Comparison{Budget: budget, Metric: metric, ByCategory: map[int]Interval{}}
	if len(mem) != len(base) {
		return c, fmt.Errorf("eval: %d and %d results do not pair", len(mem), len(base))
	}
	by := map[int][2][]float64{}
	var all [2][]float64
	for i := range mem {
		a, b := mem[i], base[i]
		if a.Sample != b.Sample || a.Index != b.Index {
			return c, fmt.Errorf("eval: result %d pairs %s#%d with %s#%d", i, a.Sample, a.Index, b.Sample, b.Index)
		}
		if a.Category < locomo.MultiHop || a.Category > locomo.SingleHop {
			continue
		}
		x, y := a.Strict, b.Strict
		switch metric {
		case "coverage":
			if a.CoverageWords == 0 {
				continue
			}
			x, y = a.Coverage, b.Coverage
		default:
			if len(a.Evidence) == 0 {
				continue
			}
		}
		p := by[a.Category]
		p[0], p[1] = append(p[0], x), append(p[1], y)
		by[a.Category] = p
		all[0], all[1] = append(all[0], x), append(all[1], y)
	}
	for cat, p := range by {
		c.ByCategory[cat] = PairedBootstrap(p[0], p[1], resamples)
	}
	c.Overall = PairedBootstrap(all[0], all[1], resamples)
	return c, nil
}

// resamples is the number of bootstrap resamples.
const resamples = 2000
