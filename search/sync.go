package search

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"ctxscope/engine/memory/memstore"
	"ctxscope/engine/store"
)

// syncState records what of the workspace the index holds.
type syncState struct {
	Sessions map[string]sessionState `json:"sessions"`
	Sets     map[string]int          `json:"sets"` // memory set name -> revision indexed
}

// sessionState is what is indexed of one session: its generation and
// revision, how many entries of each thread, and whether any of them
// calls the delimiter tool (only then has the session episodes).
type sessionState struct {
	Generation int   `json:"generation"`
	Revision   int   `json:"revision"`
	Threads    []int `json:"threads"`
	Delimited  bool  `json:"delimited,omitempty"`
}

func newSyncState() syncState {
	return syncState{Sessions: map[string]sessionState{}, Sets: map[string]int{}}
}

// SyncStats reports what a sync did.
type SyncStats struct {
	Sessions int `json:"sessions"` // sessions (re)indexed
	Sets     int `json:"sets"`     // memory sets (re)indexed
	Indexed  int `json:"indexed"`  // documents written
	Deleted  int `json:"deleted"`  // documents removed
}

// Sync brings the index up to date with the workspace: it indexes the
// entries sessions gained since the last sync (all of a session that was
// rewritten), re-indexes changed episodes and memory sets, and removes
// the documents of deleted sessions and sets. Each session's or set's
// documents and the record of having indexed them are written in one
// batch, so an interrupted sync resumes where it stopped.
func (x *Index) Sync(ctx context.Context, st *store.Store) (SyncStats, error) {
	if !inBackground(ctx) {
		x.yield.waiting.Add(1)
		x.mu.Lock()
		x.yield.waiting.Add(-1)
	} else {
		x.mu.Lock()
	}
	defer x.mu.Unlock()
	var stats SyncStats
	infos, err := st.Sessions(ctx, 0, 0)
	if err != nil {
		return stats, err
	}
	live := map[string]bool{}
	for _, info := range infos {
		live[info.Key] = true
		prev, ok := x.state.Sessions[info.Key]
		if ok && prev.Generation == info.Generation && prev.Revision == info.Revision {
			continue
		}
		if err := x.giveWay(ctx); err != nil {
			return stats, err
		}
		if err := x.syncSession(ctx, st, info, prev, ok, &stats); err != nil {
			return stats, fmt.Errorf("search: index session %s: %w", info.Key, err)
		}
		stats.Sessions++
	}
	for key := range x.state.Sessions {
		if !live[key] {
			if err := x.drop(term(FieldSession, key), func(s *syncState) { delete(s.Sessions, key) }, &stats); err != nil {
				return stats, err
			}
		}
	}
	return stats, x.syncSets(ctx, st, &stats)
}

// pageEntries is how many entries a sync reads from the store at a time.
const pageEntries = 256

// batchText is how much text a sync gathers before it writes a batch to
// the index (and records its progress with it).
const batchText = 2 << 20

// incomplete is the revision recorded for a session whose indexing has
// begun but not ended: the next sync resumes from the recorded threads.
const incomplete = -1

// syncSession indexes what a session gained, or all of it when it was
// rewritten, reading its entries page by page and writing them in batches
// of bounded text, each with the progress it makes: memory stays bounded
// by the largest entry, and an interrupted sync resumes where it stopped.
func (x *Index) syncSession(ctx context.Context, st *store.Store, info store.SessionInfo, prev sessionState, indexed bool, stats *SyncStats) error {
	full := !indexed || prev.Generation != info.Generation || len(prev.Threads) > info.Threads
	progress := sessionState{Generation: info.Generation, Revision: incomplete}
	old := conjunction(term(FieldSession, info.Key), term(FieldKind, KindEpisode))
	if full {
		old = term(FieldSession, info.Key)
	} else {
		progress.Threads = append([]int(nil), prev.Threads...)
		progress.Delimited = prev.Delimited
	}
	b := x.idx.NewBatch()
	n, err := x.deleteMatching(b, old)
	if err != nil {
		return err
	}
	stats.Deleted += n
	if !full {
		if n, err = x.rewind(ctx, b, st, info.Key, prev.Revision, &progress); err != nil {
			return err
		}
		stats.Deleted += n
	}
	pending := 0
	record := func(s *syncState) { s.Sessions[info.Key] = progress.clone() }
	err = st.EachEntryPage(ctx, info.Key, progress.Threads, pageEntries, func(p store.EntryPage) error {
		for i, e := range p.Entries {
			for _, d := range EntryDocs(info.Key, p.Thread, p.ThreadID, p.From+i, e) {
				if err := b.Index(d.ID, d.fields()); err != nil {
					return err
				}
				pending += len(d.Text)
				stats.Indexed++
			}
			progress.Delimited = progress.Delimited || declaresEpisodes(e)
		}
		progress.reached(p.Thread, p.From+len(p.Entries))
		if pending < batchText {
			return nil
		}
		if err := x.commit(b, record); err != nil {
			return err
		}
		b, pending = x.idx.NewBatch(), 0
		return x.giveWay(ctx)
	})
	if err != nil {
		return err
	}
	if err := indexEpisodes(b, st, info.Key, progress.Delimited, stats); err != nil {
		return err
	}
	progress.reached(info.Threads-1, 0)
	progress.Revision = info.Revision
	return x.commit(b, record)
}

// indexEpisodes adds to b the documents of the episodes session key
// declares, when it has delimiter calls (delimited). A session's episodes
// are indexed afresh at each sync of it: a growth can change the last.
func indexEpisodes(b *bleve.Batch, st *store.Store, key string, delimited bool, stats *SyncStats) error {
	eps, err := declaredEpisodes(st, key, delimited)
	if err != nil {
		return err
	}
	for _, d := range EpisodeDocs(key, eps) {
		if err := b.Index(d.ID, d.fields()); err != nil {
			return err
		}
		stats.Indexed++
	}
	return nil
}

// rewind adds to b the deletion of the documents of the thread tails that
// growths of session key replaced after revision after (see
// store.Grow), moves progress back to where each tail starts, and
// returns how many documents it deletes.
func (x *Index) rewind(ctx context.Context, b *bleve.Batch, st *store.Store, key string, after int, progress *sessionState) (int, error) {
	rws, err := st.RewindsSince(ctx, key, after)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range rws {
		if r.Thread >= len(progress.Threads) {
			continue // a thread not indexed yet
		}
		progress.Threads[r.Thread] = min(progress.Threads[r.Thread], r.From)
		for _, eid := range r.EntryIDs {
			k, err := x.deleteMatching(b, conjunction(term(FieldSession, key), term(FieldThread, r.ThreadID), term(FieldEntry, eid)))
			if err != nil {
				return n, err
			}
			n += k
		}
	}
	return n, nil
}

// reached records that thread t is indexed up to entry n (never going
// back), growing the list of threads as needed.
func (s *sessionState) reached(t, n int) {
	for len(s.Threads) <= t {
		s.Threads = append(s.Threads, 0)
	}
	if t >= 0 && n > s.Threads[t] {
		s.Threads[t] = n
	}
}

// declaredEpisodes returns the episodes of the session key, which it reads whole
// if delimited says any entry calls the delimiter tool: an episode spans
// the whole active branch of its thread, not only what a sync added.
func declaredEpisodes(st *store.Store, key string, delimited bool) ([]Episode, error) {
	if !delimited {
		return nil, nil
	}
	ss, err := st.Load(key)
	if err != nil {
		return nil, fmt.Errorf("read episodes: %w", err)
	}
	return Episodes(ss), nil
}

func (s sessionState) clone() sessionState {
	s.Threads = append([]int(nil), s.Threads...)
	return s
}

func (x *Index) syncSets(ctx context.Context, st *store.Store, stats *SyncStats) error {
	sets, err := memstore.TablesOf(st).Sets(ctx)
	if err != nil {
		return err
	}
	live := map[string]bool{}
	for _, m := range sets {
		live[m.Name] = true
		if x.state.Sets[m.Name] == m.Revision {
			continue
		}
		docs, err := memoryDocs(ctx, st, m.Name)
		if err != nil {
			return fmt.Errorf("search: read memory set %s: %w", m.Name, err)
		}
		b := x.idx.NewBatch()
		n, err := x.deleteMatching(b, term(FieldSet, m.Name))
		if err != nil {
			return err
		}
		stats.Deleted += n
		for i := range docs {
			if err := b.Index(docs[i].ID, docs[i].fields()); err != nil {
				return err
			}
		}
		stats.Indexed += len(docs)
		stats.Sets++
		rev := m.Revision
		if err := x.commit(b, func(s *syncState) { s.Sets[m.Name] = rev }); err != nil {
			return fmt.Errorf("search: index memory set %s: %w", m.Name, err)
		}
	}
	for name := range x.state.Sets {
		if !live[name] {
			if err := x.drop(term(FieldSet, name), func(s *syncState) { delete(s.Sets, name) }, stats); err != nil {
				return err
			}
		}
	}
	return nil
}

// drop removes the documents matching q, and updates the state in the
// same batch.
func (x *Index) drop(q query.Query, update func(*syncState), stats *SyncStats) error {
	b := x.idx.NewBatch()
	n, err := x.deleteMatching(b, q)
	if err != nil {
		return err
	}
	stats.Deleted += n
	return x.commit(b, update)
}

// commit applies update to a copy of the state, writes it with the batch
// and keeps it once the batch is in.
func (x *Index) commit(b *bleve.Batch, update func(*syncState)) error {
	next := syncState{Sessions: make(map[string]sessionState, len(x.state.Sessions)), Sets: make(map[string]int, len(x.state.Sets))}
	for k, v := range x.state.Sessions {
		next.Sessions[k] = v
	}
	for k, v := range x.state.Sets {
		next.Sets[k] = v
	}
	update(&next)
	raw, err := json.Marshal(next)
	if err != nil {
		return err
	}
	b.SetInternal(keySync, raw)
	if err := x.idx.Batch(b); err != nil {
		return err
	}
	x.state = next
	return nil
}

// deleteMatching adds the deletion of every document matching q to b and
// returns how many.
func (x *Index) deleteMatching(b *bleve.Batch, q query.Query) (int, error) {
	const page = 10000
	n := 0
	for from := 0; ; from += page {
		req := bleve.NewSearchRequestOptions(q, page, from, false)
		res, err := x.idx.Search(req)
		if err != nil {
			return n, err
		}
		for _, h := range res.Hits {
			b.Delete(h.ID)
			n++
		}
		if len(res.Hits) < page {
			return n, nil
		}
	}
}

func term(field, value string) query.Query {
	q := query.NewTermQuery(value)
	q.SetField(field)
	return q
}

func conjunction(qs ...query.Query) query.Query { return query.NewConjunctionQuery(qs) }
