package graphviz

// Edge directions decided by cycle breaking.
const (
	dirForward  = iota // drawn as given
	dirReversed        // reversed to break a cycle
	dirLoop            // a self-loop, left out of ranking
)

// breakCycles decides, for every edge, whether the layered layout keeps
// its direction. It runs a depth-first search from the nodes in input
// order and reverses the edges that lead back to a node on the search
// stack, which leaves an acyclic graph. It takes O(V+E) time and no
// recursion, so long chains cannot exhaust the stack.
func breakCycles(n int, ends [][2]int) []uint8 {
	out := make([][]int, n) // node -> edge indices leaving it
	for i, e := range ends {
		out[e[0]] = append(out[e[0]], i)
	}
	dir := make([]uint8, len(ends))
	const (
		unseen = iota
		onStack
		done
	)
	state := make([]uint8, n)
	type frame struct{ v, next int }
	var stack []frame
	for s := 0; s < n; s++ {
		if state[s] != unseen {
			continue
		}
		state[s] = onStack
		stack = append(stack[:0], frame{s, 0})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next == len(out[f.v]) {
				state[f.v] = done
				stack = stack[:len(stack)-1]
				continue
			}
			ei := out[f.v][f.next]
			f.next++
			w := ends[ei][1]
			switch {
			case w == f.v:
				dir[ei] = dirLoop
			case state[w] == onStack:
				dir[ei] = dirReversed
			case state[w] == unseen:
				state[w] = onStack
				stack = append(stack, frame{w, 0})
			}
		}
	}
	return dir
}

// dagEdge is an edge of the acyclic graph that ranking sees: distinct
// (from, to) pairs with the number of input edges they stand for.
type dagEdge struct {
	from, to int
	weight   int
}

// acyclicEdges merges the edges of the acyclic graph by endpoint pair,
// in first-seen order, and returns them with each input edge's index into
// the result (-1 for self-loops).
func acyclicEdges(ends [][2]int, dir []uint8) ([]dagEdge, []int) {
	of := make([]int, len(ends))
	seen := make(map[[2]int]int, len(ends))
	var out []dagEdge
	for i, e := range ends {
		if dir[i] == dirLoop {
			of[i] = -1
			continue
		}
		if dir[i] == dirReversed {
			e[0], e[1] = e[1], e[0]
		}
		k, ok := seen[e]
		if !ok {
			k = len(out)
			seen[e] = k
			out = append(out, dagEdge{from: e[0], to: e[1]})
		}
		out[k].weight++
		of[i] = k
	}
	return out, of
}
