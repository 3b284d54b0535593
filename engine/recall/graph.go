package recall

import (
	"sort"
	"strings"

	"ctxscope/engine/memory/code"
	"ctxscope/engine/memory/kg"
)

// graph is the memory's graph channel: the files the query names (by
// path, or through a symbol a file defines), latest mention first, and
// for each the evicted passages of every relation about it, the most
// telling first (see passageRank) and, among equals, the latest first.
func (ix *index) graph(q string, gone func(string) bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range ix.namedFiles(q) {
		var ids []string
		rank := map[string]int{} // a passage of several relations ranks by the most telling
		for _, rid := range ix.mem.Graph.Incident(f.ID) {
			r, ok := ix.mem.Graph.Relation(rid)
			if !ok {
				continue
			}
			for _, id := range r.Passages {
				if _, mine := ix.block[id]; !mine || seen[id] || !gone(id) {
					continue
				}
				k := ix.passageRank(r.Predicate, id)
				if old, ok := rank[id]; !ok {
					ids = append(ids, id)
				} else if old <= k {
					continue
				}
				rank[id] = k
			}
		}
		for _, id := range ids {
			seen[id] = true
		}
		sort.SliceStable(ids, func(i, j int) bool {
			if ri, rj := rank[ids[i]], rank[ids[j]]; ri != rj {
				return ri < rj
			}
			bi, bj := ix.blockOrder(ids[i]), ix.blockOrder(ids[j])
			if bi != bj {
				return bi > bj // the latest block first
			}
			return ix.order[ids[i]] < ix.order[ids[j]] // its chunks in order
		})
		out = append(out, ids...)
	}
	return out
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

// namedFiles returns the file entities the query names, the latest
// mention first: a word that is a file's path (or ends with it, or that
// it ends with: an absolute path against a relative one), or a symbol
// that files define.
func (ix *index) namedFiles(q string) []*kg.Entity {
	words := strings.FieldsFunc(q, func(c rune) bool {
		return strings.ContainsRune(" \t\n\"'`(),;:[]{}<>=", c)
	})
	var out []*kg.Entity
	seen := map[string]bool{}
	add := func(e *kg.Entity) {
		if !seen[e.ID] {
			seen[e.ID] = true
			out = append(out, e)
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
				add(f)
			}
		}
		for _, name := range []string{w, w + "()"} {
			s, ok := ix.mem.Graph.Lookup(name)
			if !ok || s.Type != code.TypeSymbol || len(w) < 4 {
				continue
			}
			for _, rid := range ix.mem.Graph.Incident(s.ID) {
				if r, ok := ix.mem.Graph.Relation(rid); ok && r.Predicate == "defines" && r.Object == s.ID {
					if f, ok := ix.mem.Graph.Entity(r.Subject); ok {
						add(f)
					}
				}
			}
		}
	}
	return out
}
