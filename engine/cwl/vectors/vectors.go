// Package vectors loads the CWL conformance vectors
// (testdata/shared/cwl-vectors/public.json) for tests.
package vectors

import (
	"bytes"
	"encoding/json"
	"fmt"

	"ctxscope/engine/ingest/pi"
	"ctxscope/engine/inputfile"
	"ctxscope/engine/session"
)

// File is the vectors file.
type File struct {
	GeneratedBy string   `json:"generatedBy"`
	Vectors     []Vector `json:"vectors"`
}

// Vector is one conformance vector.
type Vector struct {
	ID      string            `json:"id"`
	Title   string            `json:"title"`
	History []json.RawMessage `json:"history"`
	Passes  []Pass            `json:"passes"`
}

// Pass is one filter call and its expected result.
type Pass struct {
	Budget        int             `json:"budget"`
	ContextWindow int             `json:"contextWindow"`
	Threshold     int             `json:"threshold"`
	TokensBefore  int             `json:"tokensBefore"`
	TokensAfter   int             `json:"tokensAfter"`
	ChunkStats    json.RawMessage `json:"chunkStats"`
	View          json.RawMessage `json:"view"`
}

// Load reads the vectors file at path.
func Load(path string) (*File, error) {
	raw, err := inputfile.ReadAll(path, 0)
	if err != nil {
		return nil, err
	}
	var f File
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &f, nil
}

// Vector returns the vector with the given id (V1, V2, ...).
func (f *File) Vector(id string) (*Vector, error) {
	for i := range f.Vectors {
		if f.Vectors[i].ID == id {
			return &f.Vectors[i], nil
		}
	}
	return nil, fmt.Errorf("no vector %s", id)
}

// Messages returns the imported history of the vector with the given id
// (see [Vector.Messages]).
func (f *File) Messages(id string) ([]*session.Message, error) {
	v, err := f.Vector(id)
	if err != nil {
		return nil, err
	}
	return v.Messages()
}

// HistoryJSON returns the vector's history as a JSON array.
func (v *Vector) HistoryJSON() []byte {
	b, _ := json.Marshal(v.History)
	return b
}

// Messages imports the history with the pi importer and returns its
// messages in order. It fails if the importer skipped anything.
func (v *Vector) Messages() ([]*session.Message, error) {
	s, err := pi.Importer{}.Import(bytes.NewReader(v.HistoryJSON()), v.ID)
	if err != nil {
		return nil, err
	}
	if session.Errors(s.Diagnostics) > 0 {
		return nil, fmt.Errorf("%s: %v", v.ID, s.Diagnostics)
	}
	var out []*session.Message
	for _, e := range s.Main().Entries {
		out = append(out, e.Message)
	}
	if len(out) != len(v.History) {
		return nil, fmt.Errorf("%s: imported %d of %d messages", v.ID, len(out), len(v.History))
	}
	return out, nil
}
