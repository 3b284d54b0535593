package explore

import (
	"ctxscope/engine/memory"
	"ctxscope/engine/memory/retrieve"
)

// Evidence is one gold evidence turn of a question and whether the
// retrieved context covers it.
type Evidence struct {
	Passage Passage `json:"passage"`
	// Hit is true when the context shows the passage or an item drawn
	// from it (the recall the evaluation reports); Verbatim when it shows
	// the passage itself.
	Hit      bool `json:"hit"`
	Verbatim bool `json:"verbatim"`
	// Via lists the ids of the items that cover it.
	Via []string `json:"via"`
}

// Gold checks each evidence turn against a retrieval result.
func Gold(m *memory.Memory, res *retrieve.Result, evidence []string) []Evidence {
	out := make([]Evidence, 0, len(evidence))
	for _, turn := range evidence {
		ev := Evidence{Passage: passage(m, turn), Via: []string{}}
		for _, it := range res.Items {
			for _, p := range it.Passages {
				if p != turn {
					continue
				}
				ev.Hit = true
				ev.Via = append(ev.Via, it.Kind+":"+it.ID)
				if it.Kind == "passage" {
					ev.Verbatim = true
				}
				break
			}
		}
		out = append(out, ev)
	}
	return out
}
