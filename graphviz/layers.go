package graphviz

// lgraph is the proper layered graph that ordering and positioning work
// on: the real nodes first, then one virtual node for every rank a long
// edge passes, so that every edge joins adjacent ranks.
type lgraph struct {
	real     int       // vertices below real are the graph's nodes
	rank     []int     // vertex -> rank
	width    []float64 // vertex -> box width (0 for virtual vertices)
	height   []float64
	up, down [][]int // vertex -> neighbours on the rank above / below
	layers   [][]int // rank -> vertices from left to right
	pos      []int   // vertex -> index in its layer
	chains   [][]int // DAG edge -> its vertices from top to bottom

	// members lists the vertices that ordering works on (one connected
	// component), seen marks those an initial order has placed, and base
	// is the rank of the component's first layer.
	members []int
	seen    []bool
	base    int
}

// newLGraph builds the layered graph for ranked DAG edges es over nodes of
// the given sizes.
func newLGraph(rank []int, es []dagEdge, w, h []float64) *lgraph {
	n := len(rank)
	g := &lgraph{real: n, rank: append([]int(nil), rank...), width: append([]float64(nil), w...), height: append([]float64(nil), h...)}
	g.up, g.down = make([][]int, n), make([][]int, n)
	g.chains = make([][]int, len(es))
	for i, e := range es {
		chain := []int{e.from}
		prev := e.from
		for r := rank[e.from] + 1; r < rank[e.to]; r++ {
			d := g.addVirtual(r)
			g.link(prev, d)
			chain = append(chain, d)
			prev = d
		}
		g.link(prev, e.to)
		g.chains[i] = append(chain, e.to)
	}
	top := 0
	for _, r := range g.rank {
		top = max(top, r)
	}
	g.layers = make([][]int, top+1)
	g.pos = make([]int, len(g.rank))
	return g
}

func (g *lgraph) addVirtual(r int) int {
	g.rank = append(g.rank, r)
	g.width = append(g.width, 0)
	g.height = append(g.height, 0)
	g.up = append(g.up, nil)
	g.down = append(g.down, nil)
	return len(g.rank) - 1
}

func (g *lgraph) link(a, b int) {
	g.down[a] = append(g.down[a], b)
	g.up[b] = append(g.up[b], a)
}

// virtual reports whether v stands for a point of a long edge.
func (g *lgraph) virtual(v int) bool { return v >= g.real }

// setLayers replaces the layers and refreshes positions.
func (g *lgraph) setLayers(layers [][]int) {
	for r, l := range layers {
		g.layers[r] = append(g.layers[r][:0], l...)
		g.renumber(r)
	}
}

// renumber refreshes the positions of layer r.
func (g *lgraph) renumber(r int) {
	for i, v := range g.layers[r] {
		g.pos[v] = i
	}
}

// copyLayers returns a deep copy of the current order.
func (g *lgraph) copyLayers() [][]int {
	out := make([][]int, len(g.layers))
	for r, l := range g.layers {
		out[r] = append([]int(nil), l...)
	}
	return out
}
