package explore

import "ctxscope/engine/memory"

// Passage is a passage as a viewer shows it.
type Passage struct {
	ID      string `json:"id"`
	Session int    `json:"session"`
	Speaker string `json:"speaker"`
	Stamp   string `json:"stamp"`
	Text    string `json:"text"`
}

// passage returns the view of the passage id, or one with only the id
// when the memory has no such passage.
func passage(m *memory.Memory, id string) Passage {
	p, ok := m.Passage(id)
	if !ok {
		return Passage{ID: id}
	}
	return Passage{ID: p.ID, Session: p.Session, Speaker: p.Speaker, Stamp: p.Stamp, Text: p.Text}
}

func passages(m *memory.Memory, ids []string) []Passage {
	out := make([]Passage, 0, len(ids))
	for _, id := range ids {
		out = append(out, passage(m, id))
	}
	return out
}
