package graphviz

import "sort"

// crossings counts the edge crossings between every pair of adjacent
// layers of g in its current order.
func (g *lgraph) crossings() int {
	total := 0
	var south []int
	for r := 0; r+1 < len(g.layers); r++ {
		south = south[:0]
		for _, v := range g.layers[r] {
			start := len(south)
			for _, w := range g.down[v] {
				south = append(south, g.pos[w])
			}
			sort.Ints(south[start:])
		}
		total += inversions(south, len(g.layers[r+1]))
	}
	return total
}

// inversions counts the pairs i < j with seq[i] > seq[j], for values in
// [0, size), with the accumulator tree of Barth, Jünger and Mutzel,
// "Simple and Efficient Bilayer Cross Counting" (2004): O(len(seq) log size).
func inversions(seq []int, size int) int {
	first := 1
	for first < size {
		first *= 2
	}
	tree := make([]int, 2*first-1)
	first--
	count := 0
	for _, x := range seq {
		i := x + first
		tree[i]++
		for i > 0 {
			if i%2 == 1 {
				count += tree[i+1]
			}
			i = (i - 1) / 2
			tree[i]++
		}
	}
	return count
}
