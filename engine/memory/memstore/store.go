// Package memstore keeps built memories in the workspace's memory tables,
// on SQLite or PostgreSQL alike: one memory set per memory, each layer in
// its own table, so that memories survive restarts and the workspace's
// search index can index their passages, triples and experience items.
// [Tables] reads and writes the rows; [Memories] turns a whole memory into
// them and back.
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

// ErrNotFound is returned for an unknown memory (memory set), and
// ErrNoEntity by [Tables.ResolveEntity] for a name no entity holds.
var (
	ErrNotFound = errors.New("no such memory")
	ErrNoEntity = errors.New("no such entity")
)

// Memories stores memories in a workspace's memory tables, one memory set
// per memory, named by the memory's id. It is safe for concurrent use.
type Memories struct {
	t Tables
}

// New returns the memory store of an open workspace.
func New(ws *wstore.Store) *Memories { return &Memories{t: TablesOf(ws)} }

// Save writes m in one transaction, replacing any memory with the same id.
func (s *Memories) Save(ctx context.Context, m *memory.Memory) error {
	if m.ID == "" {
		return errors.New("memstore: a memory without an id")
	}
	d, err := encode(m)
	if err != nil {
		return fmt.Errorf("memstore: encode %s: %w", m.ID, err)
	}
	kind := m.From.Kind
	if kind == "" {
		kind = "memory"
	}
	if err := s.t.Replace(ctx, m.ID, kind, d); err != nil {
		return fmt.Errorf("memstore: save %s: %w", m.ID, err)
	}
	return nil
}

// Load reads the memory with the given id.
func (s *Memories) Load(ctx context.Context, id string) (*memory.Memory, error) {
	_, d, err := s.t.Read(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("memstore: load %s: %w", id, err)
	}
	m, err := decode(id, d)
	if err != nil {
		return nil, fmt.Errorf("memstore: decode %s: %w", id, err)
	}
	return m, nil
}

// Sets lists the stored memories' sets by name.
func (s *Memories) Sets(ctx context.Context) ([]MemorySet, error) { return s.t.Sets(ctx) }

// List returns the ids of the stored memories, sorted.
func (s *Memories) List(ctx context.Context) ([]string, error) {
	sets, err := s.t.Sets(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(sets))
	for _, set := range sets {
		out = append(out, set.Name)
	}
	return out, nil
}

// Revision returns the revision of the memory with the given id, which
// changes with every write to it, or ErrNotFound.
func (s *Memories) Revision(ctx context.Context, id string) (int, error) {
	return s.t.Revision(ctx, id)
}

// Delete removes a memory.
func (s *Memories) Delete(ctx context.Context, id string) error {
	return s.t.Delete(ctx, id)
}
