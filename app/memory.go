package app

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"ctxscope/app/graphs"
	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/explore"
	"ctxscope/engine/memory/locomo"
	memstore "ctxscope/engine/memory/memstore"
	"ctxscope/engine/memory/retrieve"
	"ctxscope/engine/revcache"
	"ctxscope/graphviz"
)

// Memory is the bound service of the memory explorer: the workspace's
// memories, their knowledge graphs laid out in Go, entities with
// provenance, experience clusters, search, retrieval with explanations,
// and memory builds. Memories are named by their set name.
type Memory struct {
	app *App

	// loaded are the stored memories read, by set, as of the set's
	// revision.
	loaded *revcache.Cache[*loadedMemory]

	embOnce sync.Once
	emb     embed.Provider
	embErr  error

	locomoMu sync.Mutex
	locomo   map[string][]*locomo.Conversation

	jobs *jobs
}

// loadedMemory is a stored memory in memory with what was derived from
// it, valid while the set's revision is the same.
type loadedMemory struct {
	m *memory.Memory

	mu      sync.Mutex
	graph   *graphviz.Graph
	ego     *graphviz.EgoIndex
	layouts map[string]*graphs.KnowledgeView
	indexes map[int]*retrieve.Index // by passage window
}

func newMemory(a *App) *Memory {
	return &Memory{app: a, loaded: revcache.New[*loadedMemory](keepMemories), locomo: map[string][]*locomo.Conversation{}, jobs: newJobs()}
}

// keepMemories is how many stored memories stay read; the least recently
// used goes first.
const keepMemories = 8

// ErrNoMemory is returned for an unknown memory set.
var ErrNoMemory = errors.New("no such memory in the workspace")

// get returns the loaded memory of set, reading it again when the stored
// set changed.
func (s *Memory) get(ctx context.Context, set string) (*loadedMemory, error) {
	rev, err := s.app.ws.Memories().Revision(ctx, set)
	if err != nil {
		return nil, fmt.Errorf("%w: %q", ErrNoMemory, set)
	}
	return s.loaded.Get(ctx, set, rev, func(ctx context.Context, _ *loadedMemory, _ bool) (*loadedMemory, error) {
		m, err := s.app.ws.LoadMemory(ctx, set)
		if errors.Is(err, memstore.ErrNotFound) {
			return nil, fmt.Errorf("%w: %q", ErrNoMemory, set)
		}
		if err != nil {
			return nil, err
		}
		return &loadedMemory{m: m, layouts: map[string]*graphs.KnowledgeView{}, indexes: map[int]*retrieve.Index{}}, nil
	})
}

// save stores an edited memory and forgets what was derived from it.
func (s *Memory) save(ctx context.Context, m *memory.Memory) error {
	if err := s.app.ws.SaveMemory(ctx, m); err != nil {
		return err
	}
	s.loaded.Forget(m.ID, "")
	return nil
}

// MemoryInfo describes a stored memory.
type MemoryInfo struct {
	Name     string        `json:"name"`
	Kind     string        `json:"kind"`
	Source   string        `json:"source"` // offline, llm:<model> or imported
	From     memory.Origin `json:"from"`
	Speakers []string      `json:"speakers"`
	Stats    memory.Stats  `json:"stats"`
	// Questions counts the LoCoMo questions of the conversation, 0 when
	// the memory was not built from LoCoMo.
	Questions int `json:"questions"`
}

// List returns the workspace's memories by name.
func (s *Memory) List(ctx context.Context) ([]MemoryInfo, error) {
	s.app.called("Memory.List")
	sets, err := s.app.ws.Memories().Sets(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]MemoryInfo, 0, len(sets))
	for _, set := range sets {
		info, err := s.Info(ctx, set.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, info)
	}
	return out, nil
}

// Info describes one memory.
func (s *Memory) Info(ctx context.Context, set string) (MemoryInfo, error) {
	s.app.called("Memory.Info", set)
	lm, err := s.get(ctx, set)
	if err != nil {
		return MemoryInfo{}, err
	}
	m := lm.m
	info := MemoryInfo{Name: m.ID, Kind: m.From.Kind, Source: m.Source, From: m.From, Speakers: m.Speakers, Stats: m.Stats()}
	if info.Speakers == nil {
		info.Speakers = []string{}
	}
	if c, err := s.conversation(m); err == nil && c != nil {
		info.Questions = len(c.QA)
	}
	return info, nil
}

// Delete removes a memory from the workspace.
func (s *Memory) Delete(ctx context.Context, set string) error {
	s.app.called("Memory.Delete", set)
	if err := s.app.ws.DeleteMemory(ctx, set); err != nil {
		return err
	}
	s.loaded.Forget(set, "")
	return nil
}

// GraphRequest asks for the whole knowledge graph (Center "") or the ego
// graph of an entity.
type GraphRequest struct {
	Set    string `json:"set"`
	Center string `json:"center"` // entity id
	Hops   int    `json:"hops"`
	Limit  int    `json:"limit"` // at most this many nodes in an ego graph; 0 means 2,000
}

// Graph lays out the knowledge graph, or an ego graph, with the force
// layout. Layouts are cached until the memory changes.
func (s *Memory) Graph(ctx context.Context, r GraphRequest) (*graphs.KnowledgeView, error) {
	s.app.called("Memory.Graph", r)
	ctx, done := s.app.latest.begin(ctx, "Memory.Graph")
	defer done()
	lm, err := s.get(ctx, r.Set)
	if err != nil {
		return nil, err
	}
	if r.Hops < 0 || r.Hops > 6 || r.Limit < 0 {
		return nil, fmt.Errorf("hops must be 0 to 6 and the limit not negative")
	}
	if r.Center != "" && r.Limit == 0 {
		r.Limit = 2000
	}
	lm.mu.Lock()
	defer lm.mu.Unlock()
	if lm.graph == nil {
		lm.graph = graphs.Knowledge(lm.m)
		if lm.ego, err = graphviz.NewEgoIndex(lm.graph); err != nil {
			return nil, err
		}
	}
	key := fmt.Sprintf("%s/%d/%d", r.Center, r.Hops, r.Limit)
	if v, ok := lm.layouts[key]; ok {
		return v, nil
	}
	if r.Center != "" {
		if _, ok := lm.m.Graph.Entity(r.Center); !ok {
			return nil, fmt.Errorf("%w: %q", explore.ErrNoEntity, r.Center)
		}
	}
	v, err := graphs.LayoutKnowledge(ctx, lm.graph, lm.ego, r.Center, r.Hops, r.Limit)
	if err != nil {
		return nil, err
	}
	lm.layouts[key] = v
	return v, nil
}

// Timeline returns the conversation's sessions and how the relations'
// times are spread, for the time slider.
func (s *Memory) Timeline(ctx context.Context, set string) (explore.Timeline, error) {
	s.app.called("Memory.Timeline", set)
	lm, err := s.get(ctx, set)
	if err != nil {
		return explore.Timeline{}, err
	}
	return explore.TimelineOf(lm.m), nil
}

// Entity returns an entity with its relations, their provenance, its
// merges and the experience items linked to it.
func (s *Memory) Entity(ctx context.Context, set, id string) (*explore.Entity, error) {
	s.app.called("Memory.Entity", set, id)
	lm, err := s.get(ctx, set)
	if err != nil {
		return nil, err
	}
	return explore.EntityOf(lm.m, id)
}

// FindEntities returns up to limit (at most 200; 20 when 0) entities
// whose name or an alias contains text, best matches first.
func (s *Memory) FindEntities(ctx context.Context, set, text string, limit int) ([]explore.Match, error) {
	s.app.called("Memory.FindEntities", set, text, limit)
	lm, err := s.get(ctx, set)
	if err != nil {
		return nil, err
	}
	if limit <= 0 || limit > 200 {
		limit = 20
	}
	return explore.FindEntities(lm.m, text, limit), nil
}

// Merge merges entity drop into keep and saves the memory; Undo reverses
// it.
func (s *Memory) Merge(ctx context.Context, set, keep, drop string) (*explore.Entity, error) {
	s.app.called("Memory.Merge", set, keep, drop)
	lm, err := s.get(ctx, set)
	if err != nil {
		return nil, err
	}
	k, ok1 := lm.m.Graph.Entity(keep)
	d, ok2 := lm.m.Graph.Entity(drop)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("%w: merge %q into %q", explore.ErrNoEntity, drop, keep)
	}
	if _, err := lm.m.Graph.MergeEntities(keep, drop, "merged by hand: "+d.Name+" into "+k.Name); err != nil {
		return nil, err
	}
	if err := s.save(ctx, lm.m); err != nil {
		return nil, err
	}
	return s.Entity(ctx, set, keep)
}

// Undo reverses a merge (the latest one in force) and saves the memory.
func (s *Memory) Undo(ctx context.Context, set, mergeID string) error {
	s.app.called("Memory.Undo", set, mergeID)
	lm, err := s.get(ctx, set)
	if err != nil {
		return err
	}
	if err := lm.m.Graph.Undo(mergeID); err != nil {
		return err
	}
	return s.save(ctx, lm.m)
}

// Experiences returns the experience layer: clusters with their centre
// text, members and items, and why each member is where it is.
func (s *Memory) Experiences(ctx context.Context, set string) (explore.Experience, error) {
	s.app.called("Memory.Experiences", set)
	lm, err := s.get(ctx, set)
	if err != nil {
		return explore.Experience{}, err
	}
	return explore.ExperienceOf(lm.m, cluster.PaperConfig()), nil
}

// Passage returns one passage.
func (s *Memory) Passage(ctx context.Context, set, id string) (explore.Passage, error) {
	s.app.called("Memory.Passage", set, id)
	lm, err := s.get(ctx, set)
	if err != nil {
		return explore.Passage{}, err
	}
	p, ok := lm.m.Passage(id)
	if !ok {
		return explore.Passage{}, fmt.Errorf("%s has no passage %q", set, id)
	}
	return explore.Passage{ID: p.ID, Session: p.Session, Speaker: p.Speaker, Stamp: p.Stamp, Text: p.Text}, nil
}
