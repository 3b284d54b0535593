// Package memstore keeps built memories in the SQLite workspace, in the
// memory tables of package engine/store: one memory set per memory, each
// layer in its own table, so that memories survive restarts and the
// workspace's search index can index their passages, triples and
// experience items.
//
// What the tables have no column for (a set's speakers and origin, the
// embedding component it removes, entity merges, the experience layer's
// pending units, routing decisions and cluster centres, a relation's
// normalized time) travels in their JSON metadata columns. A memory read
// back is equal to the memory written: same graph snapshot, passages and
// experience layer.
package memstore

import (
	"context"
	"errors"
	"fmt"

	"ctxscope/engine/memory"
	wstore "ctxscope/engine/store"
)

// Store keeps memories by id.
type Store interface {
	Save(m *memory.Memory) error
	Load(id string) (*memory.Memory, error)
	List() ([]string, error)
	Delete(id string) error
}

// ErrNotFound is returned by Load and Delete for an unknown id.
var ErrNotFound = errors.New("store: no such memory")

// SQLite stores memories in a workspace's memory tables, one memory set
// per memory, named by the memory's id. It is safe for concurrent use.
type SQLite struct {
	ws *wstore.Store
}

// New returns the memory store of an open workspace.
func New(ws *wstore.Store) *SQLite { return &SQLite{ws: ws} }

// Save writes m in one transaction, replacing any memory with the same id.
func (s *SQLite) Save(m *memory.Memory) error {
	if m.ID == "" {
		return fmt.Errorf("store: memory without an id")
	}
	d, err := encode(m)
	if err != nil {
		return fmt.Errorf("store: encode %s: %w", m.ID, err)
	}
	kind := m.From.Kind
	if kind == "" {
		kind = "memory"
	}
	if err := s.ws.ReplaceMemorySet(context.Background(), m.ID, kind, d); err != nil {
		return fmt.Errorf("store: save %s: %w", m.ID, err)
	}
	return nil
}

// Load reads the memory with the given id.
func (s *SQLite) Load(id string) (*memory.Memory, error) {
	_, d, err := s.ws.MemorySetData(context.Background(), id)
	if errors.Is(err, wstore.ErrNotFound) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: load %s: %w", id, err)
	}
	m, err := decode(id, d)
	if err != nil {
		return nil, fmt.Errorf("store: decode %s: %w", id, err)
	}
	return m, nil
}

// List returns the ids of the stored memories, sorted.
func (s *SQLite) List() ([]string, error) {
	sets, err := s.ws.MemorySets(context.Background())
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(sets))
	for _, set := range sets {
		out = append(out, set.Name)
	}
	return out, nil
}

// Delete removes a memory.
func (s *SQLite) Delete(id string) error {
	err := s.ws.DeleteMemorySet(context.Background(), id)
	if errors.Is(err, wstore.ErrNotFound) {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return err
}
