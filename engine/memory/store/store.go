// Package store persists built memories until the SQLite workspace takes
// them over: one compact file per memory (gob, gzip-compressed) under a
// workspace directory, behind the small [Store] interface.
package store

import (
	"compress/gzip"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/kg"
)

// Store keeps memories by id.
type Store interface {
	Save(m *memory.Memory) error
	Load(id string) (*memory.Memory, error)
	List() ([]string, error)
}

// ErrNotFound is returned by Load for an unknown id.
var ErrNotFound = errors.New("store: no such memory")

// Dir stores memories as files "<id>.ctxmem" in a directory.
type Dir string

// Ext is the memory file extension.
const Ext = ".ctxmem"

// version is the file format's version, written first.
const version = 1

// file is what a memory file holds.
type file struct {
	Version    int
	ID         string
	Speakers   []string
	Source     string
	Passages   []memory.Passage
	Graph      kg.Snapshot
	Experience *cluster.Layer
	Common     []float32
}

func (d Dir) path(id string) (string, error) {
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		return "", fmt.Errorf("store: bad memory id %q", id)
	}
	return filepath.Join(string(d), id+Ext), nil
}

// Save writes m, replacing any memory with the same id.
func (d Dir) Save(m *memory.Memory) error {
	p, err := d.path(m.ID)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(string(d), 0o755); err != nil {
		return err
	}
	tmp := p + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	err = Write(f, m)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, p)
}

// Write encodes m to w.
func Write(w io.Writer, m *memory.Memory) error {
	zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
	f := file{Version: version, ID: m.ID, Speakers: m.Speakers, Source: m.Source, Passages: m.Passages, Experience: m.Experience, Common: m.Common}
	if m.Graph != nil {
		f.Graph = m.Graph.Snapshot()
	}
	if err := gob.NewEncoder(zw).Encode(f); err != nil {
		return fmt.Errorf("store: encode %s: %w", m.ID, err)
	}
	return zw.Close()
}

// Load reads the memory with the given id.
func (d Dir) Load(id string) (*memory.Memory, error) {
	p, err := d.path(id)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return m, nil
}

// Read decodes a memory written by [Write].
func Read(r io.Reader) (*memory.Memory, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("store: not a memory file: %w", err)
	}
	var f file
	if err := gob.NewDecoder(io.LimitReader(zr, 1<<30)).Decode(&f); err != nil {
		return nil, fmt.Errorf("store: decode: %w", err)
	}
	if f.Version != version {
		return nil, fmt.Errorf("store: memory file version %d, want %d", f.Version, version)
	}
	g, err := kg.FromSnapshot(f.Graph)
	if err != nil {
		return nil, err
	}
	if f.Experience == nil {
		f.Experience = cluster.NewLayer()
	}
	return &memory.Memory{ID: f.ID, Speakers: f.Speakers, Source: f.Source, Passages: f.Passages, Graph: g, Experience: f.Experience, Common: f.Common}, nil
}

// List returns the ids of the stored memories, sorted.
func (d Dir) List() ([]string, error) {
	ents, err := os.ReadDir(string(d))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), Ext) {
			out = append(out, strings.TrimSuffix(e.Name(), Ext))
		}
	}
	sort.Strings(out)
	return out, nil
}

// Size returns the total bytes of the stored memory files.
func (d Dir) Size() (int64, error) {
	ids, err := d.List()
	if err != nil {
		return 0, err
	}
	var n int64
	for _, id := range ids {
		p, _ := d.path(id)
		st, err := os.Stat(p)
		if err != nil {
			return 0, err
		}
		n += st.Size()
	}
	return n, nil
}
