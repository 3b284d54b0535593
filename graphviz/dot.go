package graphviz

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DOTOptions tune [WriteDOT].
type DOTOptions struct {
	// Layout, when set, pins every node and edge where it puts them (pos,
	// width and height attributes), so that `neato -n2` draws our layout.
	Layout *Layout
	// Sizing sets the font size written; 14 when zero.
	Sizing Sizing
}

// WriteDOT writes g as a Graphviz digraph. The output is deterministic:
// nodes sorted by ID, edges by endpoints, label and attributes, every
// attribute list by key. Each node and edge carries its style (see
// [StyleOf]) followed by its own attributes, which override the style's
// Graphviz attributes of the same name. Text is escaped so that any
// string, invalid UTF-8 and control characters included, yields valid
// DOT.
func WriteDOT(w io.Writer, g *Graph, opt DOTOptions) error {
	_, ends, err := g.resolve()
	if err != nil {
		return err
	}
	if l := opt.Layout; l != nil && (len(l.Nodes) != len(g.Nodes) || len(l.Edges) != len(g.Edges)) {
		return fmt.Errorf("graphviz: layout does not match the graph")
	}
	sz := opt.Sizing.withDefaults()
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "digraph %s {\n", dotID(cmpOr(g.Name, "G")))
	graph := map[string]string{"fontname": "Helvetica", "rankdir": "TB"}
	if l := opt.Layout; l != nil {
		graph["bb"] = fmt.Sprintf("0,0,%s,%s", num(l.Width), num(l.Height))
	}
	for k, v := range g.Attrs {
		graph[k] = v
	}
	fmt.Fprintf(bw, "\tgraph %s;\n", dotAttrList(graph))
	fmt.Fprintf(bw, "\tnode %s;\n", dotAttrList(map[string]string{"fontname": "Helvetica", "fontsize": num(sz.FontSize)}))
	fmt.Fprintf(bw, "\tedge %s;\n", dotAttrList(map[string]string{"fontname": "Helvetica", "fontsize": num(sz.FontSize * 0.75)}))
	writeDOTNodes(bw, g, opt.Layout)
	writeDOTEdges(bw, g, ends, opt.Layout)
	bw.WriteString("}\n")
	return bw.Flush()
}

// writeDOTNodes writes the node statements, sorted by ID.
func writeDOTNodes(w *bufio.Writer, g *Graph, l *Layout) {
	for _, i := range sortedNodes(g) {
		n := &g.Nodes[i]
		a := StyleOf(n.Attrs).dotNodeAttrs()
		a["label"] = n.text()
		if l != nil {
			b := l.Nodes[i]
			a["pos"] = fmt.Sprintf("%s,%s!", num(b.X), num(l.Height-b.Y))
			a["width"], a["height"] = num(b.W/72), num(b.H/72)
		}
		merge(a, n.Attrs)
		fmt.Fprintf(w, "\t%s %s;\n", dotID(n.ID), dotAttrList(a))
	}
}

// writeDOTEdges writes the edge statements in [sortedEdges] order.
func writeDOTEdges(w *bufio.Writer, g *Graph, ends [][2]int, l *Layout) {
	for _, i := range sortedEdges(g) {
		e := &g.Edges[i]
		a := EdgeStyleOf(e.Attrs).dotEdgeAttrs()
		if e.Label != "" {
			a["label"] = e.Label
		}
		if l != nil && len(l.Edges[i].Points) >= 2 {
			a["pos"] = splinePos(l.Edges[i], l.Height)
		}
		merge(a, e.Attrs)
		fmt.Fprintf(w, "\t%s -> %s %s;\n", dotID(g.Nodes[ends[i][0]].ID), dotID(g.Nodes[ends[i][1]].ID), dotAttrList(a))
	}
}

// merge copies src over dst.
func merge(dst map[string]string, src Attrs) {
	for k, v := range src {
		dst[k] = v
	}
}

// cmpOr returns s, or def when s is empty.
func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// sortedNodes returns node indices ordered by ID.
func sortedNodes(g *Graph) []int {
	idx := make([]int, len(g.Nodes))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return g.Nodes[idx[a]].ID < g.Nodes[idx[b]].ID })
	return idx
}

// sortedEdges returns edge indices ordered by From, To, Label and then
// their attributes.
func sortedEdges(g *Graph) []int {
	keys := make([]string, len(g.Edges))
	idx := make([]int, len(g.Edges))
	for i, e := range g.Edges {
		idx[i] = i
		keys[i] = dotAttrList(map[string]string(e.Attrs))
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := &g.Edges[idx[a]], &g.Edges[idx[b]]
		switch {
		case x.From != y.From:
			return x.From < y.From
		case x.To != y.To:
			return x.To < y.To
		case x.Label != y.Label:
			return x.Label < y.Label
		}
		return keys[idx[a]] < keys[idx[b]]
	})
	return idx
}

// splinePos writes a route as a Graphviz edge pos: an arrowhead tip
// ("e,x,y") and cubic Bézier control points ending an arrowhead's length
// (10 points) short of it, y flipped upwards; a polyline becomes straight
// Bézier pieces.
func splinePos(r Route, height float64) string {
	pts := slices.Clone(r.Points)
	if !r.Spline {
		pts = []Point{r.Points[0]}
		for i := 0; i+1 < len(r.Points); i++ {
			a, b := r.Points[i], r.Points[i+1]
			pts = append(pts, Point{a.X + (b.X-a.X)/3, a.Y + (b.Y-a.Y)/3}, Point{a.X + 2*(b.X-a.X)/3, a.Y + 2*(b.Y-a.Y)/3}, b)
		}
	}
	last := len(pts) - 1
	tip, back := pts[last], pts[last-1]
	if d := math.Hypot(tip.X-back.X, tip.Y-back.Y); d > 0 {
		f := min(10, d) / d
		pts[last] = Point{tip.X - (tip.X-back.X)*f, tip.Y - (tip.Y-back.Y)*f}
	}
	parts := make([]string, 0, len(pts)+1)
	parts = append(parts, "e,"+num(tip.X)+","+num(height-tip.Y))
	for _, p := range pts {
		parts = append(parts, num(p.X)+","+num(height-p.Y))
	}
	return strings.Join(parts, " ")
}

// num formats a coordinate with at most two decimals.
func num(x float64) string {
	s := strconv.FormatFloat(x, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// dotAttrList formats attributes as a sorted DOT attribute list.
func dotAttrList(a map[string]string) string {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = dotID(k) + "=" + dotID(a[k])
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// plainID matches DOT identifiers that need no quotes.
var plainID = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// dotKeywords may not be used as bare identifiers.
var dotKeywords = map[string]bool{"node": true, "edge": true, "graph": true, "digraph": true, "subgraph": true, "strict": true}

// dotID writes s as a DOT identifier: bare when it is a plain word,
// otherwise quoted, with backslashes doubled, quotes escaped, newlines as
// Graphviz line breaks, other control characters and invalid UTF-8 as
// visible escapes. Distinct strings stay distinct.
func dotID(s string) string {
	if plainID.MatchString(s) && !dotKeywords[strings.ToLower(s)] {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}
