package memory

import (
	"context"

	"ctxscope/engine/memory/kg"
	"ctxscope/engine/memory/temporal"
)

// Triple is an extracted fact with entity names (not ids) at its ends.
type Triple struct {
	Subject   string         `json:"subject"`
	Predicate string         `json:"predicate"`
	Object    string         `json:"object"`
	Time      temporal.Value `json:"time"`
	Condition string         `json:"condition,omitempty"`
}

// Extraction is what an extractor read from one passage.
type Extraction struct {
	Entities []string `json:"entities"`
	Triples  []Triple `json:"triples"`
	// Types gives an entity's type by its name, when the extractor
	// knows it (one of EntityTypes).
	Types map[string]string `json:"types,omitempty"`
}

// EntityTypes are the types an extractor may give an entity.
var EntityTypes = []string{"person", "place", "organisation", "date", "event", "object", "activity"}

// Extractor reads entities and temporal triples from one passage.
type Extractor interface {
	// Name identifies the extractor for the memory's Source.
	Name() string
	Extract(ctx context.Context, p Passage) (Extraction, error)
}

// Review is a session-level correction of the graph: triples to add,
// relations to update, relations to remove.
type Review struct {
	Add    []Triple `json:"add"`
	Update []Update `json:"update"`
	Deny   []string `json:"deny"` // relation ids
}

// Update changes one relation. Nil fields are left alone; a non-nil
// empty Time or Condition clears it, as the reference's update does.
type Update struct {
	RelationID string  `json:"relationId"`
	Predicate  string  `json:"predicate,omitempty"` // empty keeps the predicate
	Time       *string `json:"time,omitempty"`
	Condition  *string `json:"condition,omitempty"`
}

// Reviewer checks a whole session against the relations written from it
// (the reference's session review).
type Reviewer interface {
	Review(ctx context.Context, session []Passage, g *kg.Graph, relations []*kg.Relation) (Review, error)
}
