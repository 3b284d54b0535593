package explore

import (
	"ctxscope/engine/memory"
	"ctxscope/engine/memory/retrieve"
	"strings"
)

// Evidence is one gold evidence turn of a question and whether the
// retrieved context covers it.
type Evidence struct {
	Passage Passage `json:"passage"`
	// Hit is true when the context holds the passage's whole text: the
	// strict recall the evaluation reports. Pointed is true when it shows
	// only items drawn from the passage (triples, experience items),
	// which are not its words.
	Hit     bool `json:"hit"`
	Pointed bool `json:"pointed"`
	// Via lists the ids of the items that cover it.
	Via []string `json:"via"`
}

// Gold checks each evidence turn against a retrieval result.
func Gold(m *memory.Memory, res *retrieve.Result, evidence []string) []Evidence {
	out := make([]Evidence, 0, len(evidence))
	for _, turn := range evidence {
		ev := Evidence{Passage: passage(m, turn), Via: []string{}}
		ev.Hit = ev.Passage.Text != "" && strings.Contains(res.Context, ev.Passage.Text)
		for _, it := range res.Items {
			for _, p := range it.Passages {
				if p == turn {
					ev.Via = append(ev.Via, it.Kind+":"+it.ID)
					break
				}
			}
		}
		ev.Pointed = !ev.Hit && len(ev.Via) > 0
		out = append(out, ev)
	}
	return out
}
