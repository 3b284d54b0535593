package app

import (
	"context"
	"ctxscope/engine/workspace"
	"strings"
	"sync"

	"ctxscope/app/graphs"
	"ctxscope/engine/memory"
	"ctxscope/engine/memory/code"
	"ctxscope/engine/recall"
	"ctxscope/engine/revcache"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
	"ctxscope/graphviz"
	"ctxscope/search/lexical"
)

// maxSessionMemories bounds the session memories kept; the least recently
// used goes first.
const maxSessionMemories = 4

// sessionMemories keeps the memory of each session the debugger follows,
// read from its tool calls and results. When a live session grows, only
// its new entries are read: the memory of its new revision is built from
// the one before.
type sessionMemories struct {
	cache *revcache.Cache[*liveMemory]
}

func newSessionMemories() sessionMemories {
	return sessionMemories{cache: revcache.New[*liveMemory](maxSessionMemories)}
}

// liveMemory is the memory of one session as of a revision, kept up to
// date as the session grows (not to be confused with SessionMemory, the
// reply that follows it through a replay).
type liveMemory struct {
	// mu guards everything below; it is held while a reply reads m.
	mu       sync.Mutex
	revision int
	reader   *code.Reader
	m        *memory.Memory
	// read counts the entries read of each thread, and last is the ref
	// of the last one read, to tell an append from a rewrite.
	read    []int
	last    []string
	layouts map[int]*graphs.KnowledgeView // by thread, for this revision
	// indexes are the recall indexes of this revision, by the thread
	// object they were built from (a replay's thread).
	indexes map[*session.Thread]*recall.Index
}

// recallOptions are the options of the debugger's recalls: the default
// budget B, passages counted with the estimator, BM25 from search.
var recallOptions = recall.Options{Counter: tokens.Estimator{}, Index: lexical.Build}

// index returns the recall index of thread number thread (t, the thread a
// replay was prepared from), building it on first use in this revision.
// The caller holds sm.mu.
func (sm *liveMemory) index(ctx context.Context, t *session.Thread, thread int) (*recall.Index, error) {
	if x, ok := sm.indexes[t]; ok {
		return x, nil
	}
	x, err := recall.NewIndex(ctx, sm.m, t, thread, recallOptions)
	if err != nil {
		return nil, err
	}
	sm.indexes[t] = x
	return x, nil
}

// view returns the memory of session key as of o's revision, and the
// layout of the knowledge graph of thread number thread.
func (s sessionMemories) view(ctx context.Context, key string, o *workspace.Opened, thread int) (*liveMemory, *graphs.KnowledgeView, error) {
	sm, err := s.cache.Get(ctx, key, o.Revision(), func(ctx context.Context, old *liveMemory, ok bool) (*liveMemory, error) {
		if !ok {
			old = &liveMemory{revision: -1}
		}
		old.mu.Lock()
		defer old.mu.Unlock()
		if err := old.bringUpTo(ctx, key, o); err != nil {
			return nil, err
		}
		return old, nil
	})
	if err != nil {
		return nil, nil, err
	}
	sm.mu.Lock()
	defer sm.mu.Unlock()
	// The memory is shared by the builds of successive revisions, and
	// the build of an older one may have ended last.
	if err := sm.bringUpTo(ctx, key, o); err != nil {
		return nil, nil, err
	}
	if l, ok := sm.layouts[thread]; ok {
		return sm, l, nil
	}
	l, err := graphs.LayoutSession(ctx, threadGraph(sm.m, thread))
	if err != nil {
		return nil, nil, err
	}
	sm.layouts[thread] = l
	return sm, l, nil
}

// bringUpTo makes sm the memory of session key as of o's revision,
// forgetting what was derived from an older one. The caller holds sm.mu.
// When ctx ends first it returns ctx's cause, and what was read so far
// is kept: the next call reads on from there.
func (sm *liveMemory) bringUpTo(ctx context.Context, key string, o *workspace.Opened) error {
	if sm.revision == o.Revision() {
		return nil
	}
	if err := sm.update(ctx, key, o.Session); err != nil {
		return err
	}
	sm.revision = o.Revision()
	sm.layouts = map[int]*graphs.KnowledgeView{}
	sm.indexes = map[*session.Thread]*recall.Index{}
	return nil
}

// readBetweenLooks is how many entries update reads between looks at its
// context.
const readBetweenLooks = 256

// update brings the memory up to session s: it reads the entries added
// since, or reads s again from the start when s is not an extension of
// what was read (the file was rewritten). It stops with ctx's cause when
// ctx ends, having recorded how far it read.
func (sm *liveMemory) update(ctx context.Context, key string, s *session.Session) error {
	if sm.reader == nil || !sm.extends(s) {
		sm.reader = code.NewReader(key, nil)
		sm.reader.CWD = s.CWD
		sm.m = sm.reader.Memory()
		sm.read, sm.last = nil, nil
	}
	for len(sm.read) < len(s.Threads) {
		sm.read = append(sm.read, 0)
		sm.last = append(sm.last, "")
	}
	for ti, th := range s.Threads {
		for i := sm.read[ti]; i < len(th.Entries); i++ {
			if (i-sm.read[ti])%readBetweenLooks == readBetweenLooks-1 {
				if err := context.Cause(ctx); err != nil {
					sm.read[ti], sm.last[ti] = i, code.EntryRef(th.Entries[i-1])
					return err
				}
			}
			sm.reader.Add(ti, th.Entries[i])
		}
		sm.read[ti] = len(th.Entries)
		if n := len(th.Entries); n > 0 {
			sm.last[ti] = code.EntryRef(th.Entries[n-1])
		}
	}
	return nil
}

// extends reports whether every thread read so far is still in s, with
// at least the entries read and the same last one.
func (sm *liveMemory) extends(s *session.Session) bool {
	if len(s.Threads) < len(sm.read) {
		return false
	}
	for ti, n := range sm.read {
		es := s.Threads[ti].Entries
		if len(es) < n || (n > 0 && code.EntryRef(es[n-1]) != sm.last[ti]) {
			return false
		}
	}
	return true
}

// forget drops the memory of a session.
func (s sessionMemories) forget(key string) { s.cache.Forget(key, "") }

// threadGraph is the knowledge graph of the relations read from thread
// number thread, with the entities they join.
func threadGraph(m *memory.Memory, thread int) *graphviz.Graph {
	all := graphs.Knowledge(m)
	g := &graphviz.Graph{Name: all.Name}
	used := map[string]bool{}
	for _, e := range all.Edges {
		if fromThread(e.Attrs["passages"], thread) {
			g.Edges = append(g.Edges, e)
			used[e.From], used[e.To] = true, true
		}
	}
	for _, n := range all.Nodes {
		if used[n.ID] {
			g.Nodes = append(g.Nodes, n)
		}
	}
	return g
}

// fromThread reports whether any of the space-separated passage ids was
// read from thread number thread.
func fromThread(passages string, thread int) bool {
	for _, id := range strings.Fields(passages) {
		if r, ok := code.ParseRef(id); ok && r.Thread == thread {
			return true
		}
	}
	return false
}
