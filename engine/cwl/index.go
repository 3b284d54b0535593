package cwl

// skipList finds the next index still alive in [0, n): removed indices
// are skipped through path-compressed links, so a scan over the alive ones
// costs what they are, not what was removed.
type skipList []int32

func newSkipList(n int) skipList {
	s := make(skipList, n+1)
	s.reset(n)
	return s
}

// reset makes indices [0, n) alive again.
func (s skipList) reset(n int) {
	for i := 0; i <= n && i < len(s); i++ {
		s[i] = int32(i)
	}
}

// find returns the first alive index at or after i (len(s)-1 when none).
func (s skipList) find(i int) int {
	for int(s[i]) != i {
		s[i] = s[s[i]]
		i = int(s[i])
	}
	return i
}

// remove marks index i dead.
func (s skipList) remove(i int) { s[i] = int32(i + 1) }

// fenwick sums values by prefix in logarithmic time.
type fenwick []int64

func newFenwick(n int) fenwick { return make(fenwick, n+1) }

// add adds d to the value at index i.
func (f fenwick) add(i, d int) {
	for i++; i < len(f); i += i & -i {
		f[i] += int64(d)
	}
}

// sum returns the total of the values at indices [0, i).
func (f fenwick) sum(i int) int {
	var t int64
	for ; i > 0; i -= i & -i {
		t += f[i]
	}
	return int(t)
}

// clear zeroes every value.
func (f fenwick) clear() {
	for i := range f {
		f[i] = 0
	}
}
