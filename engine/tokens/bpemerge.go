package tokens

import "math"

// smallPiece is the length up to which a piece is merged by rescanning its
// pairs after every merge, as tiktoken does: quadratic, but faster than a
// heap on the short pieces that make up nearly all text.
const smallPiece = 64

// mergeCount returns the number of tokens byte-pair encoding gives piece:
// starting from single bytes, it merges the adjacent pair whose joined
// bytes have the lowest rank, the leftmost on ties, until no joined pair
// is in ranks. The result equals tiktoken's for every piece; long pieces
// (a run of base64, a line of one character repeated) take O(n log n)
// rather than tiktoken's O(n²).
func mergeCount(piece string, v *vocab, scratch *mergeScratch) int {
	if len(piece) <= 1 {
		return len(piece)
	}
	if len(piece) <= smallPiece {
		return scratch.rescan(piece, v)
	}
	return scratch.heapMerge(piece, v)
}

// mergeScratch holds the buffers of one merge, reused across pieces.
type mergeScratch struct {
	starts []int // rescan: the start of each part, then len(piece)
	ranks  []int // rescan: the rank of joining part i with part i+1

	next, prev []int // heapMerge: the linked list of parts by start byte
	pairs      pairHeap
}

const noRank = math.MaxInt

// rescan is tiktoken's merge loop over an array of parts.
func (m *mergeScratch) rescan(piece string, v *vocab) int {
	n := len(piece)
	m.starts = m.starts[:0]
	for i := 0; i <= n; i++ {
		m.starts = append(m.starts, i)
	}
	m.ranks = m.ranks[:0]
	for i := 0; i < n-1; i++ {
		m.ranks = append(m.ranks, v.rank(piece[i:i+2]))
	}
	starts, rs := m.starts, m.ranks
	for len(rs) > 0 {
		best, at := noRank, -1
		for i, r := range rs {
			if r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		// Part at absorbs part at+1; the pairs on either side change.
		starts = append(starts[:at+1], starts[at+2:]...)
		rs = append(rs[:at], rs[at+1:]...)
		if at < len(rs) {
			rs[at] = v.rank(piece[starts[at]:starts[at+2]])
		}
		if at > 0 {
			rs[at-1] = v.rank(piece[starts[at-1]:starts[at+1]])
		}
	}
	return len(starts) - 1
}

// heapMerge merges with a priority queue of adjacent pairs keyed by (rank,
// start), which picks the same pair as the rescan at every step. Parts are
// named by their start byte; a queued pair is stale once either part has
// grown, which its recorded end tells.
func (m *mergeScratch) heapMerge(piece string, v *vocab) int {
	n := len(piece)
	m.next = grow(m.next, n)
	m.prev = grow(m.prev, n)
	for i := 0; i < n; i++ {
		m.next[i], m.prev[i] = i+1, i-1
	}
	m.pairs = m.pairs[:0]
	for i := 0; i < n-1; i++ {
		if r := v.rank(piece[i : i+2]); r != noRank {
			m.pairs = append(m.pairs, pair{rank: int32(r), start: int32(i), end: int32(i + 2)})
		}
	}
	m.pairs.init()
	parts := n
	for len(m.pairs) > 0 {
		top := m.pairs.pop()
		p := struct{ start, end int }{int(top.start), int(top.end)}
		right := m.next[p.start]
		if right >= n || m.next[right] != p.end || m.prev[right] != p.start {
			continue // stale: a part of the pair has changed
		}
		m.next[p.start] = p.end
		if p.end < n {
			m.prev[p.end] = p.start
		}
		m.prev[right] = -2 // right no longer starts a part
		parts--
		if p.end < n {
			m.push(piece, v, p.start, m.next[p.end])
		}
		if l := m.prev[p.start]; l >= 0 {
			m.push(piece, v, l, p.end)
		}
	}
	return parts
}

// push queues the pair of parts spanning piece[start:end].
func (m *mergeScratch) push(piece string, v *vocab, start, end int) {
	if r := v.rank(piece[start:end]); r != noRank {
		m.pairs.push(pair{rank: int32(r), start: int32(start), end: int32(end)})
	}
}

// vocab is an encoding's mergeable ranks. The two-byte tokens are also
// in a table: every merge starts from the pairs of a piece's bytes, and an
// array lookup costs far less than a map's.
type vocab struct {
	ranks map[string]int
	pairs []int32 // the rank of the token b0 b1 at b0<<8 | b1, or -1
}

func newVocab(ranks map[string]int) *vocab {
	v := &vocab{ranks: ranks, pairs: make([]int32, 1<<16)}
	for i := range v.pairs {
		v.pairs[i] = -1
	}
	for tok, r := range ranks {
		if len(tok) == 2 {
			v.pairs[int(tok[0])<<8|int(tok[1])] = int32(r)
		}
	}
	return v
}

// rank returns the rank of the token b, or noRank when b is no token.
func (v *vocab) rank(b string) int {
	if len(b) == 2 {
		if r := v.pairs[int(b[0])<<8|int(b[1])]; r >= 0 {
			return int(r)
		}
		return noRank
	}
	if r, ok := v.ranks[b]; ok {
		return r
	}
	return noRank
}

func grow(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

// pair is two adjacent parts, piece[start:end], and the rank of joining
// them.
type pair struct{ rank, start, end int32 }

// pairHeap is a min-heap of pairs ordered by rank, then start: the
// leftmost of the lowest first. It is written out rather than built on
// container/heap, whose interface boxing costs an allocation per push.
type pairHeap []pair

// heapArity is the heap's branching: four children per node make it half
// as deep as a binary heap, which is what long pieces pay for.
const heapArity = 4

func (h pairHeap) less(i, j int) bool {
	if h[i].rank != h[j].rank {
		return h[i].rank < h[j].rank
	}
	return h[i].start < h[j].start
}

func (h pairHeap) init() {
	for i := (len(h) - 2) / heapArity; i >= 0; i-- {
		h.down(i)
	}
}

func (h *pairHeap) push(p pair) {
	*h = append(*h, p)
	h.up(len(*h) - 1)
}

func (h *pairHeap) pop() pair {
	old := *h
	top := old[0]
	last := len(old) - 1
	old[0] = old[last]
	*h = old[:last]
	h.down(0)
	return top
}

func (h pairHeap) up(i int) {
	for i > 0 {
		parent := (i - 1) / heapArity
		if !h.less(i, parent) {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (h pairHeap) down(i int) {
	for {
		first := heapArity*i + 1
		if first >= len(h) {
			return
		}
		m := first
		for c := first + 1; c < first+heapArity && c < len(h); c++ {
			if h.less(c, m) {
				m = c
			}
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
