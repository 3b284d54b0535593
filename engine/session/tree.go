package session

// Tree indexes a thread's entries by id and parent so that paths and
// branches can be walked in linear time.
type Tree struct {
	thread   *Thread
	byID     map[string]int // entry id -> index in thread.Entries
	children [][]int        // entry index -> child indices, in source order
	roots    []int          // entries without a known parent, in source order
}

// NewTree indexes t. Entries whose parent is missing from the thread become
// roots. When two entries share an id, the later one wins the id.
func NewTree(t *Thread) *Tree {
	tr := &Tree{thread: t, byID: make(map[string]int, len(t.Entries)), children: make([][]int, len(t.Entries))}
	for i, e := range t.Entries {
		if e.ID != "" {
			tr.byID[e.ID] = i
		}
	}
	for i, e := range t.Entries {
		p, ok := tr.byID[e.ParentID]
		if e.ParentID == "" || !ok || p == i {
			tr.roots = append(tr.roots, i)
			continue
		}
		tr.children[p] = append(tr.children[p], i)
	}
	return tr
}

// Index returns the position of the entry with the given id, or -1.
func (tr *Tree) Index(id string) int {
	if i, ok := tr.byID[id]; ok {
		return i
	}
	return -1
}

// Children returns the positions of an entry's children in source order.
func (tr *Tree) Children(i int) []int { return tr.children[i] }

// Roots returns the positions of the entries that have no parent.
func (tr *Tree) Roots() []int { return tr.roots }

// Leaf returns the position of the thread's current leaf: the entry named by
// LeafID, or else the last entry. It returns -1 for an empty thread.
func (tr *Tree) Leaf() int {
	if i := tr.Index(tr.thread.LeafID); i >= 0 {
		return i
	}
	return len(tr.thread.Entries) - 1
}

// PathTo returns the positions from a root down to entry i, inclusive.
// A parent cycle, which only malformed input can create, ends the walk.
func (tr *Tree) PathTo(i int) []int {
	var rev []int
	seen := make(map[int]bool)
	for i >= 0 && !seen[i] {
		seen[i] = true
		rev = append(rev, i)
		e := tr.thread.Entries[i]
		if e.ParentID == "" {
			break
		}
		i = tr.Index(e.ParentID)
	}
	for l, r := 0, len(rev)-1; l < r; l, r = l+1, r-1 {
		rev[l], rev[r] = rev[r], rev[l]
	}
	return rev
}

// Leaves returns the positions of every entry without children, in source
// order. A linear thread has exactly one leaf; each further leaf is the tip
// of a branch.
func (tr *Tree) Leaves() []int {
	var out []int
	for i := range tr.thread.Entries {
		if len(tr.children[i]) == 0 {
			out = append(out, i)
		}
	}
	return out
}
