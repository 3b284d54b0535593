package memstore

import (
	"encoding/json"
	"time"
)

// The rows of the memory tables. [encode] turns a memory into them and
// [decode] back; the workspace's search index reads them to index a
// memory's passages, triples and experience items.

// MemorySet is a named group of memory layers: everything one memory
// build produced, for one session or one LoCoMo conversation.
type MemorySet struct {
	Name     string    `json:"name"`
	Kind     string    `json:"kind"`     // what it was built from, such as "session" or "locomo"
	Revision int       `json:"revision"` // bumps on every write to the set
	Created  time.Time `json:"created"`
}

// MemoryData is everything a memory set holds, for writing or reading a
// whole set at once.
type MemoryData struct {
	// Metadata is the set's own data, as [encode] writes it.
	Metadata    json.RawMessage `json:"metadata,omitempty"`
	Passages    []Passage       `json:"passages"`
	Entities    []Entity        `json:"entities"`
	Relations   []Relation      `json:"relations"`
	Contains    []Contains      `json:"contains"`
	Clusters    []Cluster       `json:"clusters"`
	Experiences []Experience    `json:"experiences"`
}

// Passage is a raw passage: one dialogue turn or message, verbatim.
type Passage struct {
	ID        string `json:"id"`
	Text      string `json:"text"`
	Speaker   string `json:"speaker"`
	Timestamp string `json:"timestamp"` // as the source wrote it (LoCoMo session date_time)
	QAID      string `json:"qaId"`      // the turn's id in the source (LoCoMo dia_id)
	Session   string `json:"session"`   // the source's session within the conversation
	// Time is the passage's absolute time in RFC 3339, "" when unknown.
	Time string `json:"time,omitempty"`
}

// Entity is a node of the graph memory. Its name and aliases resolve to
// it case-insensitively; when two entities claim the same name, the first
// stored keeps it, as in MemWeaver's name index.
type Entity struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Source   string          `json:"source"` // "dialog" for extraction, "session_review" for review
	Aliases  []string        `json:"aliases"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// Relation is an edge of the graph memory: a semantic triple between two
// entities, with the time and condition under which it holds and its
// provenance, or a structural edge such as "about".
type Relation struct {
	ID        string          `json:"id"`
	Source    string          `json:"source"` // entity id
	Target    string          `json:"target"` // entity id
	Type      string          `json:"type"`   // the predicate
	Time      string          `json:"time"`   // normalized absolute time, "" when none
	Condition string          `json:"condition"`
	Session   string          `json:"session"`   // the conversation session it was extracted from
	QAID      string          `json:"qaId"`      // the turn it was extracted from, "" for session review
	PassageID string          `json:"passageId"` // the passage node it was extracted from
	Origin    string          `json:"origin"`    // "dialog" or "session_review"
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// Contains links a passage to an entity that appears in a relation
// extracted from it.
type Contains struct {
	Passage   string `json:"passage"`
	Entity    string `json:"entity"`
	Timestamp string `json:"timestamp"`
	// Position orders a passage's links: the order its entities were
	// linked in.
	Position int `json:"position,omitempty"`
}

// Cluster is an experience cluster: dialogue turns grouped by topic, with
// a short description of what they share.
type Cluster struct {
	ID         string          `json:"id"`
	CenterText string          `json:"centerText"`
	CenterIDs  []string        `json:"centerIds"` // the turns nearest the cluster's centre
	Metadata   json.RawMessage `json:"metadata,omitempty"`
}

// Experience is an experience item distilled from a cluster.
type Experience struct {
	ID          string          `json:"id"`
	Cluster     string          `json:"cluster"`
	Type        string          `json:"type"` // fact, strategy, preference or procedure
	Content     string          `json:"content"`
	SourceQAIDs []string        `json:"sourceQaIds"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
}
