package kg

import "strings"

// Ratio is Python difflib's SequenceMatcher(None, a, b).ratio() without
// the automatic junk heuristic: 2·M/T, where M counts the characters of
// the matching blocks found by repeatedly taking the longest common
// substring, and T is the two lengths added. Equal strings give 1.
func Ratio(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	if len(ra)+len(rb) == 0 {
		return 1
	}
	return 2 * float64(matches(ra, rb)) / float64(len(ra)+len(rb))
}

func matches(a, b []rune) int {
	i, j, n := longest(a, b)
	if n == 0 {
		return 0
	}
	return n + matches(a[:i], b[:j]) + matches(a[i+n:], b[j+n:])
}

// longest returns the longest common substring's start in a and b and its
// length, the earliest in a (then in b) on ties, as difflib does.
func longest(a, b []rune) (int, int, int) {
	bi, bj, bn := 0, 0, 0
	prev := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
				if cur[j] > bn {
					bi, bj, bn = i-cur[j], j-cur[j], cur[j]
				}
			}
		}
		prev = cur
	}
	return bi, bj, bn
}

// Resolve finds the entity a reviewer's name refers to, as the
// reference's session review does: the exact name or alias (without
// case), else the entity whose name is most similar by [Ratio] when that
// is at least minRatio (0.7 in the reference). It returns nil when none
// qualifies.
func (g *Graph) Resolve(name string, minRatio float64) *Entity {
	if e, ok := g.Lookup(name); ok {
		return e
	}
	var best *Entity
	score := minRatio
	n := strings.ToLower(strings.TrimSpace(name))
	for _, e := range g.Entities() {
		if r := Ratio(n, strings.ToLower(e.Name)); r >= score {
			best, score = e, r
			if r == 1 {
				break
			}
		}
	}
	return best
}
