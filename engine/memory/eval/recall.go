// Package eval measures a memory on LoCoMo: evidence recall and
// all-evidence-found rate per question category, context tokens, query
// latency; with an answering model, the answer scores exactly as
// MemWeaver's released code computes them (set-based F1, BLEU-1) and
// LoCoMo's official F1.
package eval

import (
	"sort"
	"time"

	"ctxscope/engine/memory/locomo"
)

// Question is one scored question.
type Question struct {
	Sample   string        `json:"sample"`
	Index    int           `json:"index"` // position in the sample's qa list
	Category int           `json:"category"`
	Question string        `json:"question"`
	Evidence []string      `json:"evidence"`
	Found    int           `json:"found"`  // evidence turns retrieved
	Recall   float64       `json:"recall"` // Found / len(Evidence)
	All      bool          `json:"all"`    // every evidence turn retrieved
	Tokens   int           `json:"tokens"` // context tokens
	Turns    int           `json:"turns"`  // distinct turns retrieved
	Latency  time.Duration `json:"latencyNs"`
	CPU      time.Duration `json:"cpuNs"` // process CPU time spent on the query
	// PassageRecall counts only the passages shown verbatim, not the
	// provenance of triples and experience items.
	PassageRecall float64 `json:"passageRecall"`
	// Strict is the share of evidence turns whose text the rendered
	// context holds (see ScoreStrict): the headline metric. Recall, which
	// also counts turns a triple or item points at, is the provenance
	// coverage diagnostic.
	Strict      float64 `json:"strict"`
	StrictFound int     `json:"strictFound"`
	// Coverage is the share of the gold answer's content words the
	// context holds, CoverageWords how many it has (0: none, and the
	// question counts in no coverage mean); Span, for a short answer,
	// whether the context holds it whole (see ScoreCoverage).
	Coverage      float64 `json:"coverage"`
	CoverageWords int     `json:"coverageWords"`
	Span          *bool   `json:"span,omitempty"`
	// Answer scores, when a model answered.
	Answer     string  `json:"answer,omitempty"`
	Reference  string  `json:"reference,omitempty"`
	F1         float64 `json:"f1,omitempty"`
	BLEU1      float64 `json:"bleu1,omitempty"`
	OfficialF1 float64 `json:"officialF1,omitempty"`
}

// ScorePassages fills PassageRecall from the passages shown verbatim.
func (q *Question) ScorePassages(shown []string) {
	got := map[string]bool{}
	for _, t := range shown {
		got[t] = true
	}
	n := 0
	for _, e := range q.Evidence {
		if got[e] {
			n++
		}
	}
	if len(q.Evidence) > 0 {
		q.PassageRecall = float64(n) / float64(len(q.Evidence))
	}
}

// Score fills Found, Recall and All from the retrieved turns.
func (q *Question) Score(retrieved []string) {
	got := make(map[string]bool, len(retrieved))
	for _, t := range retrieved {
		got[t] = true
	}
	q.Found = 0
	for _, e := range q.Evidence {
		if got[e] {
			q.Found++
		}
	}
	q.Turns = len(got)
	if len(q.Evidence) > 0 {
		q.Recall = float64(q.Found) / float64(len(q.Evidence))
	}
	q.All = q.Found == len(q.Evidence)
}

// Stats aggregates questions.
type Stats struct {
	N        int     `json:"n"`
	Recall   float64 `json:"recall"`
	AllFound float64 `json:"allFound"`
	Tokens   float64 `json:"tokens"`
	Turns    float64 `json:"turns"`
	Passage  float64 `json:"passageRecall"`
	Strict   float64 `json:"strict"`
	// StrictAll is the share of questions with every evidence turn in
	// the context.
	StrictAll float64 `json:"strictAll"`
	// Coverage is the mean answer coverage of the questions whose answer
	// has a content word (CoverageN of them), Span the share of short
	// answers held whole (of SpanN); see ScoreCoverage.
	Coverage  float64 `json:"coverage"`
	CoverageN int     `json:"coverageN"`
	Span      float64 `json:"span"`
	SpanN     int     `json:"spanN"`
	F1        float64 `json:"f1,omitempty"`
	BLEU1     float64 `json:"bleu1,omitempty"`
	Official  float64 `json:"officialF1,omitempty"`
}

// Summary is an evaluation's aggregate.
type Summary struct {
	ByCategory map[int]Stats `json:"byCategory"`
	Overall    Stats         `json:"overall"` // categories 1-4
	P50, P95   time.Duration `json:"-"`
	P50ms      float64       `json:"latencyP50ms"`
	P95ms      float64       `json:"latencyP95ms"`
	CPU50ms    float64       `json:"cpuP50ms"`
	CPU95ms    float64       `json:"cpuP95ms"`
}

// Summarize aggregates per category and over categories 1-4. Questions
// without evidence are left out of the recall figures.
func Summarize(qs []Question) Summary {
	s := Summary{ByCategory: map[int]Stats{}}
	acc := map[int][]Question{}
	var lat, cpu []time.Duration
	for _, q := range qs {
		lat = append(lat, q.Latency)
		cpu = append(cpu, q.CPU)
		if len(q.Evidence) == 0 {
			continue
		}
		acc[q.Category] = append(acc[q.Category], q)
		if q.Category >= locomo.MultiHop && q.Category <= locomo.SingleHop {
			acc[0] = append(acc[0], q)
		}
	}
	for c, list := range acc {
		st := mean(list)
		if c == 0 {
			s.Overall = st
		} else {
			s.ByCategory[c] = st
		}
	}
	s.P50, s.P95 = Percentile(lat, 0.50), Percentile(lat, 0.95)
	s.P50ms, s.P95ms = ms(s.P50), ms(s.P95)
	s.CPU50ms, s.CPU95ms = ms(Percentile(cpu, 0.5)), ms(Percentile(cpu, 0.95))
	return s
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func mean(qs []Question) Stats {
	st := Stats{N: len(qs)}
	for _, q := range qs {
		st.Recall += q.Recall
		if q.All {
			st.AllFound++
		}
		st.Tokens += float64(q.Tokens)
		st.Turns += float64(q.Turns)
		st.Passage += q.PassageRecall
		st.Strict += q.Strict
		if q.StrictFound == len(q.Evidence) {
			st.StrictAll++
		}
		st.F1 += q.F1
		st.BLEU1 += q.BLEU1
		st.Official += q.OfficialF1
		if q.CoverageWords > 0 {
			st.Coverage += q.Coverage
			st.CoverageN++
		}
		if q.Span != nil {
			st.SpanN++
			if *q.Span {
				st.Span++
			}
		}
	}
	if st.CoverageN > 0 {
		st.Coverage /= float64(st.CoverageN)
	}
	if st.SpanN > 0 {
		st.Span /= float64(st.SpanN)
	}
	if n := float64(len(qs)); n > 0 {
		st.Recall /= n
		st.AllFound /= n
		st.Tokens /= n
		st.Turns /= n
		st.Passage /= n
		st.Strict /= n
		st.StrictAll /= n
		st.F1 /= n
		st.BLEU1 /= n
		st.Official /= n
	}
	return st
}

// Percentile returns the p-quantile of ds (nearest rank); 0 for none.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(p*float64(len(s))+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}
