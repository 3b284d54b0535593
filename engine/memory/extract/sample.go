package extract

import (
	"context"
	"math/rand/v2"
	"sort"

	"ctxscope/engine/memory/locomo"
)

// Judged is one extracted triple with the passage it came from and, in a
// judged sample, its verdict under the rubric of docs/bench/memory.md:
// "fact" (true, specific and useful as stated), "weak" (true but vague or
// missing what makes it useful) or "junk" (wrong, or not a fact).
type Judged struct {
	Sample    string `json:"sample"`
	Passage   string `json:"passage"`
	Text      string `json:"text"`
	Subject   string `json:"subject"`
	Predicate string `json:"predicate"`
	Object    string `json:"object"`
	Condition string `json:"condition,omitempty"`
	Verdict   string `json:"verdict,omitempty"`
	Note      string `json:"note,omitempty"`
}

// sampleTriples draws n triples at random, with a fixed seed, from every
// triple the tagged extractor reads from convs, each with its source. The
// seed changes with every judged draw (2026/1128, 2026/1129, 2026/1130,
// then 2026/1131, each after the extractor changed): a draw read before
// the extractor's last changes is not judged again, and a new seed puts
// unread triples in the judged sample (docs/bench/memory.md says how many
// it shares with the draws before).
func sampleTriples(convs []*locomo.Conversation, n int) []Judged {
	all := allTriples(convs)
	r := rand.New(rand.NewPCG(2026, 1131))
	idx := r.Perm(len(all))[:min(n, len(all))]
	sort.Ints(idx)
	out := make([]Judged, len(idx))
	for k, i := range idx {
		out[k] = all[i]
	}
	return out
}

// allTriples returns every triple the tagged extractor reads from convs,
// in order, each with its source passage.
func allTriples(convs []*locomo.Conversation) []Judged {
	var all []Judged
	for _, c := range convs {
		for _, p := range c.Passages() {
			ex, _ := Tagged{}.Extract(context.Background(), p)
			for _, t := range ex.Triples {
				all = append(all, Judged{Sample: c.ID, Passage: p.ID, Text: p.Text, Subject: t.Subject, Predicate: t.Predicate,
					Object: t.Object, Condition: t.Condition})
			}
		}
	}
	return all
}
