package workspace

import (
	"context"

	"ctxscope/engine/memory"
	memstore "ctxscope/engine/memory/memstore"
)

// Memories returns the store of the workspace's memories.
func (w *Workspace) Memories() *memstore.Memories { return memstore.New(w.Store) }

// SaveMemory stores m as a memory set, replacing one with the same id,
// and indexes its passages, triples and experience items.
func (w *Workspace) SaveMemory(ctx context.Context, m *memory.Memory) error {
	if err := w.Memories().Save(ctx, m); err != nil {
		return err
	}
	_, err := w.Sync(ctx)
	return err
}

// LoadMemory reads the memory with the given id.
func (w *Workspace) LoadMemory(ctx context.Context, id string) (*memory.Memory, error) {
	return w.Memories().Load(ctx, id)
}

// DeleteMemory removes a memory and its documents.
func (w *Workspace) DeleteMemory(ctx context.Context, id string) error {
	if err := w.Memories().Delete(ctx, id); err != nil {
		return err
	}
	_, err := w.Sync(ctx)
	return err
}
