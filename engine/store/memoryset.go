package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// MemoryData is everything a memory set holds, for writing or reading a
// whole set at once.
type MemoryData struct {
	// Metadata is the set's own data, as the memory engine encodes it.
	Metadata    json.RawMessage `json:"metadata,omitempty"`
	Passages    []Passage       `json:"passages"`
	Entities    []Entity        `json:"entities"`
	Relations   []Relation      `json:"relations"`
	Contains    []Contains      `json:"contains"`
	Clusters    []Cluster       `json:"clusters"`
	Experiences []Experience    `json:"experiences"`
}

// ReplaceMemorySet writes a whole memory set in one transaction: the set
// is created when missing (with kind), everything it held is removed, d is
// stored, and the revision bumps once. Readers see the old set or the new
// one, never a mix.
func (s *Store) ReplaceMemorySet(ctx context.Context, name, kind string, d MemoryData) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("store: empty memory set name")
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`INSERT INTO memory_sets (name, kind, created_at) VALUES (?,?,?)
			ON CONFLICT (name) DO UPDATE SET kind = excluded.kind`, name, kind, timeText(time.Now())); err != nil {
			return err
		}
		var id int64
		if err := tx.QueryRow(`SELECT id FROM memory_sets WHERE name = ?`, name).Scan(&id); err != nil {
			return err
		}
		for _, table := range []string{"entity_names", "contains_links", "relations", "entities", "experiences", "clusters", "passages"} {
			if _, err := tx.Exec(`DELETE FROM `+table+` WHERE set_id = ?`, id); err != nil {
				return fmt.Errorf("clear %s: %w", table, err)
			}
		}
		if _, err := tx.Exec(`UPDATE memory_sets SET metadata = ?, revision = revision + 1 WHERE id = ?`, jsonObject(d.Metadata), id); err != nil {
			return err
		}
		if err := recordChange(tx, ChangeMemory); err != nil {
			return err
		}
		return putMemoryData(tx, id, d)
	})
}

func putMemoryData(tx *sql.Tx, id int64, d MemoryData) error {
	steps := []struct {
		what string
		put  func() error
	}{
		{"passages", func() error { return putPassages(tx, id, d.Passages) }},
		{"entities", func() error { return putEntities(tx, id, d.Entities) }},
		{"relations", func() error { return putRelations(tx, id, d.Relations) }},
		{"contains links", func() error { return putContains(tx, id, d.Contains) }},
		{"clusters", func() error { return putClusters(tx, id, d.Clusters) }},
		{"experiences", func() error { return putExperiences(tx, id, d.Experiences) }},
	}
	for _, st := range steps {
		if err := st.put(); err != nil {
			return fmt.Errorf("store %s: %w", st.what, err)
		}
	}
	return nil
}

// MemorySetData reads a whole memory set, each layer in the order it was
// stored. It returns ErrNotFound for an unknown set.
func (s *Store) MemorySetData(ctx context.Context, name string) (MemorySet, MemoryData, error) {
	var set MemorySet
	var d MemoryData
	var created, meta string
	err := s.read.QueryRowContext(ctx, `SELECT name, kind, revision, created_at, metadata FROM memory_sets WHERE name = ?`, name).
		Scan(&set.Name, &set.Kind, &set.Revision, &created, &meta)
	if errors.Is(err, sql.ErrNoRows) {
		return set, d, fmt.Errorf("memory set %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return set, d, err
	}
	set.Created, d.Metadata = parseTime(created), json.RawMessage(meta)
	if d.Passages, err = s.Passages(ctx, name); err != nil {
		return set, d, err
	}
	if d.Entities, err = s.Entities(ctx, name); err != nil {
		return set, d, err
	}
	if d.Relations, err = s.Relations(ctx, name, ""); err != nil {
		return set, d, err
	}
	if d.Contains, err = s.ContainedIn(ctx, name, ""); err != nil {
		return set, d, err
	}
	if d.Clusters, err = s.Clusters(ctx, name); err != nil {
		return set, d, err
	}
	d.Experiences, err = s.Experiences(ctx, name)
	return set, d, err
}

// MemorySetRevision returns the revision of a memory set, or ErrNotFound.
func (s *Store) MemorySetRevision(ctx context.Context, name string) (int, error) {
	var rev int
	err := s.read.QueryRowContext(ctx, `SELECT revision FROM memory_sets WHERE name = ?`, name).Scan(&rev)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("memory set %q: %w", name, ErrNotFound)
	}
	return rev, err
}
