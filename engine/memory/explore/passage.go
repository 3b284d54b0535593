package explore

import (
	"strings"

	"ctxscope/engine/memory"
)

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

// Passages returns the views of the passages ids, in order.
func Passages(m *memory.Memory, ids []string) []Passage { return passages(m, ids) }

// ItemText returns the text of a memory item named "<kind>:<id>": a
// passage's words, a triple as "subject predicate object", an experience
// item's content. It returns the kind and "" for an item the memory no
// longer has.
func ItemText(m *memory.Memory, item string) (kind, text string) {
	kind, id, _ := strings.Cut(item, ":")
	switch kind {
	case "passage":
		if p, ok := m.Passage(id); ok {
			return kind, p.Text
		}
	case "triple":
		if r, ok := m.Graph.Relation(id); ok {
			v := RelationOf(m, r)
			return kind, v.Subject.Name + " " + v.Predicate + " " + v.Object.Name
		}
	case "experience":
		if m.Experience != nil {
			for _, it := range m.Experience.Items() {
				if it.ID == id {
					return kind, it.Content
				}
			}
		}
	}
	return kind, ""
}
