package memory

import (
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/kg"
)

// Memory is the tri-layer memory of one conversation or agent session.
type Memory struct {
	ID       string   `json:"id"`       // the conversation's id, such as "conv-26"
	Speakers []string `json:"speakers"` // the participants, in order of first appearance
	// Source tells how the memory was made: "offline", "llm:<model>" or
	// "imported".
	Source string `json:"source"`
	// From says what the memory was built from, so that a viewer can go
	// back to the source (a LoCoMo file's questions, a session).
	From       Origin         `json:"from"`
	Passages   []Passage      `json:"passages"`
	Graph      *kg.Graph      `json:"-"`
	Experience *cluster.Layer `json:"experience"`
	// Common is the embedding component removed from every vector of this
	// memory (see embed.Centered); nil when the embedder needs none.
	Common []float32 `json:"common,omitempty"`

	index map[string]int
}

// Origin is what a memory was built from.
type Origin struct {
	// Kind is "locomo", "session" or "memweaver" (an imported export).
	Kind string `json:"kind"`
	// Path is the file read: the LoCoMo file, the session file, the
	// exported graph.
	Path string `json:"path,omitempty"`
	// Sample is the LoCoMo conversation's index in its file.
	Sample int `json:"sample"`
	// Session is the workspace session key a session memory was built
	// from.
	Session string `json:"session,omitempty"`
}

// Passage returns the passage with the given id.
func (m *Memory) Passage(id string) (*Passage, bool) {
	if m.index == nil || len(m.index) != len(m.Passages) {
		m.index = make(map[string]int, len(m.Passages))
		for i, p := range m.Passages {
			m.index[p.ID] = i
		}
	}
	i, ok := m.index[id]
	if !ok {
		return nil, false
	}
	return &m.Passages[i], true
}

// Stats counts what the memory holds.
type Stats struct {
	Passages    int `json:"passages"`
	Entities    int `json:"entities"`
	Relations   int `json:"relations"`
	Contains    int `json:"contains"`
	Clusters    int `json:"clusters"`
	Clustered   int `json:"clustered"` // units in some cluster
	Experiences int `json:"experiences"`
	Pending     int `json:"pending"`
	Merges      int `json:"merges"` // entity merges in force
}

// Stats returns the memory's counts.
func (m *Memory) Stats() Stats {
	s := Stats{Passages: len(m.Passages)}
	if m.Graph != nil {
		s.Entities, s.Relations = m.Graph.Len()
		s.Contains = m.Graph.ContainsCount()
		for _, mg := range m.Graph.Merges() {
			if !mg.Undone {
				s.Merges++
			}
		}
	}
	if m.Experience != nil {
		s.Clusters = len(m.Experience.Clusters)
		for _, c := range m.Experience.Clusters {
			s.Clustered += len(c.Members)
			s.Experiences += len(c.Items)
		}
		s.Pending = len(m.Experience.Pending)
	}
	return s
}
