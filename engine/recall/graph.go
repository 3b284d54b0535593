package recall

import (
	"sort"
	"strings"

	"ctxscope/engine/memory/code"
	"ctxscope/engine/memory/kg"
)

// graph is the memory's graph channel: the evicted passages of every
// relation about the files the query names (see namedFiles), the most
// telling first (see passageRank) whichever file they are about, so that
// what a read of the second file returned comes before what a search of
// the first one did; among equals, those of the file named first, then
// the latest first.
func (ix *index) graph(q string, gone func(string) bool) []string {
	var ids []string
	rank := map[string]int{} // a passage of several relations ranks by the most telling
	file := map[string]int{} // the first named file a passage is about
	for fi, f := range ix.namedFiles(q) {
		for _, rid := range ix.mem.Graph.Incident(f.ID) {
			r, ok := ix.mem.Graph.Relation(rid)
			if !ok {
				continue
			}
			for _, id := range r.Passages {
				if _, mine := ix.block[id]; !mine || !gone(id) {
					continue
				}
				k := ix.passageRank(r.Predicate, id)
				if old, ok := rank[id]; !ok {
					ids = append(ids, id)
					file[id] = fi
				} else if old <= k {
					continue
				}
				rank[id] = k
			}
		}
	}
	sort.SliceStable(ids, func(i, j int) bool {
		if ri, rj := rank[ids[i]], rank[ids[j]]; ri != rj {
			return ri < rj
		}
		if fi, fj := file[ids[i]], file[ids[j]]; fi != fj {
			return fi < fj
		}
		bi, bj := ix.blockOrder(ids[i]), ix.blockOrder(ids[j])
		if bi != bj {
			return bi > bj // the latest block first
		}
		return ix.order[ids[i]] < ix.order[ids[j]] // its chunks in order
	})
	return ids
}

// passageRank orders the passages of a file's relations by what they
// tell of the file: what a read returned (its content) first, then other
// tool results (searches, runs), then the calls (an edit's call carries
// the text it wrote), and last the result of an edit or a write, which
// only says that it was done.
func (ix *index) passageRank(predicate, id string) int {
	result := ix.isResult(id)
	switch {
	case result && predicate == "read":
		return 0
	case result && (predicate == "edited" || predicate == "created"):
		return 3
	case result:
		return 1
	default:
		return 2
	}
}

// blockOrder is the position of the first passage of id's block.
func (ix *index) blockOrder(id string) int {
	return ix.order[ix.passages[ix.block[id]][0]]
}

func (ix *index) isResult(id string) bool {
	p, ok := ix.mem.Passage(id)
	return ok && p.Speaker == "tool"
}

// namedFiles returns the file entities the query names: first those it
// names by path, then those it names through a symbol they define, each
// the latest mention first. A path is a word that is a file's path (or
// ends with it, or that it ends with: an absolute path against a relative
// one). A path is the stronger sign: a symbol's name is often a word of
// the prose around it too ("theme", "render").
func (ix *index) namedFiles(q string) []*kg.Entity {
	words := strings.FieldsFunc(q, func(c rune) bool {
		return strings.ContainsRune(" \t\n\"'`(),;:[]{}<>=", c)
	})
	var byPath, bySymbol []*kg.Entity
	seen := map[string]bool{}
	add := func(list *[]*kg.Entity, e *kg.Entity) {
		if !seen[e.ID] {
			seen[e.ID] = true
			*list = append(*list, e)
		}
	}
	for i := len(words) - 1; i >= 0; i-- {
		w := strings.TrimRight(strings.TrimPrefix(words[i], "./"), ".")
		if w == "" {
			continue
		}
		base := w[strings.LastIndexByte(w, '/')+1:]
		for _, f := range ix.files[base] {
			if f.Name == w || strings.HasSuffix(w, "/"+f.Name) || strings.HasSuffix(f.Name, "/"+w) {
				add(&byPath, f)
			}
		}
	}
	for i := len(words) - 1; i >= 0; i-- {
		w := strings.TrimRight(strings.TrimPrefix(words[i], "./"), ".")
		for _, name := range []string{w, w + "()"} {
			s, ok := ix.mem.Graph.Lookup(name)
			if !ok || s.Type != code.TypeSymbol || len(w) < 4 {
				continue
			}
			for _, rid := range ix.mem.Graph.Incident(s.ID) {
				if r, ok := ix.mem.Graph.Relation(rid); ok && r.Predicate == "defines" && r.Object == s.ID {
					if f, ok := ix.mem.Graph.Entity(r.Subject); ok {
						add(&bySymbol, f)
					}
				}
			}
		}
	}
	return append(byPath, bySymbol...)
}
