package graphviz

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// SVGOptions tune [WriteSVG].
type SVGOptions struct {
	// Sizing must match the sizing the layout used, for the label size.
	Sizing Sizing
}

// WriteSVG writes g drawn as l as a standalone SVG document: edges first,
// then nodes, each in the sorted order [WriteDOT] uses, so the output is
// deterministic. Every node and edge is a group with a <title> (its ID,
// or its endpoints) and its attributes as data- attributes, with CSS
// classes kind-* and state-* from its "kind" and "state".
func WriteSVG(w io.Writer, g *Graph, l *Layout, opt SVGOptions) error {
	_, ends, err := g.resolve()
	if err != nil {
		return err
	}
	if len(l.Nodes) != len(g.Nodes) || len(l.Edges) != len(g.Edges) {
		return fmt.Errorf("graphviz: layout does not match the graph")
	}
	sz := opt.Sizing.withDefaults()
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	fmt.Fprintf(bw, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"%s\">\n",
		num(l.Width), num(l.Height), num(l.Width), num(l.Height), num(sz.FontSize))
	fmt.Fprintf(bw, "<title>%s</title>\n", xmlEscape(cmpOr(g.Name, "graph")))
	writeMarkers(bw, g)
	bw.WriteString("<g class=\"edges\">\n")
	for _, i := range sortedEdges(g) {
		e := &g.Edges[i]
		writeSVGEdge(bw, e, l.Edges[i], g.Nodes[ends[i][0]].ID, g.Nodes[ends[i][1]].ID, sz)
	}
	bw.WriteString("</g>\n<g class=\"nodes\">\n")
	for k, i := range sortedNodes(g) {
		writeSVGNode(bw, k, &g.Nodes[i], l.Nodes[i], sz)
	}
	bw.WriteString("</g>\n</svg>\n")
	return bw.Flush()
}

// writeMarkers defines one arrowhead per edge colour in use.
func writeMarkers(w *bufio.Writer, g *Graph) {
	colours := map[string]bool{}
	for _, e := range g.Edges {
		colours[EdgeStyleOf(e.Attrs).Stroke] = true
	}
	if len(colours) == 0 {
		return
	}
	w.WriteString("<defs>\n")
	for _, c := range sortedKeys(boolAttrs(colours)) {
		fmt.Fprintf(w, "<marker id=\"%s\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"%s\"/></marker>\n", markerID(c), c)
	}
	w.WriteString("</defs>\n")
}

func boolAttrs(m map[string]bool) Attrs {
	a := Attrs{}
	for k := range m {
		a[k] = ""
	}
	return a
}

func markerID(colour string) string { return "arrow-" + strings.TrimPrefix(colour, "#") }

func writeSVGEdge(w *bufio.Writer, e *Edge, r Route, from, to string, sz Sizing) {
	st := EdgeStyleOf(e.Attrs)
	fmt.Fprintf(w, "<g class=\"edge%s\" data-from=\"%s\" data-to=\"%s\"%s>", classes(e.Attrs), xmlEscape(from), xmlEscape(to), dataAttrs(e.Attrs))
	fmt.Fprintf(w, "<title>%s → %s</title>", xmlEscape(from), xmlEscape(to))
	if len(r.Points) >= 2 {
		fmt.Fprintf(w, "<path d=\"%s\" fill=\"none\" stroke=\"%s\"%s marker-end=\"url(#%s)\"/>", pathData(r), st.Stroke, dashAttr(st.Dash), markerID(st.Stroke))
	}
	if e.Label != "" && len(r.Points) > 0 {
		p := r.midpoint()
		fmt.Fprintf(w, "<text x=\"%s\" y=\"%s\" font-size=\"%s\" fill=\"%s\">%s</text>", num(p.X+4), num(p.Y), num(sz.FontSize*0.75), st.Text, xmlEscape(e.Label))
	}
	w.WriteString("</g>\n")
}

func writeSVGNode(w *bufio.Writer, k int, n *Node, b Box, sz Sizing) {
	st := StyleOf(n.Attrs)
	fmt.Fprintf(w, "<g class=\"node%s\" id=\"node-%d\" data-id=\"%s\"%s>", classes(n.Attrs), k, xmlEscape(n.ID), dataAttrs(n.Attrs))
	fmt.Fprintf(w, "<title>%s</title>", xmlEscape(n.ID))
	stroke := fmt.Sprintf(" fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"%s", st.Fill, st.Stroke, map[bool]string{false: "1", true: "2"}[st.Bold], dashAttr(st.Dash))
	switch st.Shape {
	case "ellipse":
		fmt.Fprintf(w, "<ellipse cx=\"%s\" cy=\"%s\" rx=\"%s\" ry=\"%s\"%s/>", num(b.X), num(b.Y), num(b.W/2), num(b.H/2), stroke)
	default:
		rx := "6"
		if st.Shape == "note" {
			rx = "0"
		}
		fmt.Fprintf(w, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" rx=\"%s\"%s/>", num(b.X-b.W/2), num(b.Y-b.H/2), num(b.W), num(b.H), rx, stroke)
	}
	lines := strings.Split(n.text(), "\n")
	top := b.Y - float64(len(lines)-1)*sz.lineHeight()/2
	fmt.Fprintf(w, "<text text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"%s\">", st.Text)
	for i, line := range lines {
		fmt.Fprintf(w, "<tspan x=\"%s\" y=\"%s\">%s</tspan>", num(b.X), num(top+float64(i)*sz.lineHeight()), xmlEscape(line))
	}
	w.WriteString("</text></g>\n")
}

// dashAttr returns the stroke-dasharray for a dash style.
func dashAttr(dash string) string {
	switch dash {
	case "dashed":
		return ` stroke-dasharray="6,4"`
	case "dotted":
		return ` stroke-dasharray="2,3"`
	}
	return ""
}

// pathData writes a route as SVG path data.
func pathData(r Route) string {
	var b strings.Builder
	p := r.Points
	fmt.Fprintf(&b, "M%s,%s", num(p[0].X), num(p[0].Y))
	if r.Spline {
		for i := 1; i+2 < len(p); i += 3 {
			fmt.Fprintf(&b, " C%s,%s %s,%s %s,%s", num(p[i].X), num(p[i].Y), num(p[i+1].X), num(p[i+1].Y), num(p[i+2].X), num(p[i+2].Y))
		}
		return b.String()
	}
	for _, q := range p[1:] {
		fmt.Fprintf(&b, " L%s,%s", num(q.X), num(q.Y))
	}
	return b.String()
}

// midpoint returns the route's middle point, where a label goes.
func (r Route) midpoint() Point {
	pts := r.polyline()
	if len(pts)%2 == 1 {
		return pts[len(pts)/2]
	}
	a, b := pts[len(pts)/2-1], pts[len(pts)/2]
	return Point{(a.X + b.X) / 2, (a.Y + b.Y) / 2}
}

// classes returns the CSS classes for the "kind" and "state" attributes.
func classes(a Attrs) string {
	var b strings.Builder
	for _, k := range []string{"kind", "state"} {
		if v := a[k]; v != "" {
			b.WriteString(" " + k + "-" + cssName(v))
		}
	}
	return b.String()
}

// dataAttrs writes every attribute as a data- attribute, names reduced to
// lower-case letters, digits, '-' and '_' and kept distinct.
func dataAttrs(a Attrs) string {
	var b strings.Builder
	used := map[string]bool{"data-id": true, "data-from": true, "data-to": true}
	for _, k := range sortedKeys(a) {
		name := "data-" + cssName(k)
		for i := 2; used[name]; i++ {
			name = fmt.Sprintf("data-%s-%d", cssName(k), i)
		}
		used[name] = true
		fmt.Fprintf(&b, " %s=\"%s\"", name, xmlEscape(a[k]))
	}
	return b.String()
}

// cssName reduces s to a lower-case name of letters, digits, '-' and '_'.
func cssName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '-' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// xmlEscape escapes text for XML content and attribute values, replacing
// invalid UTF-8 and characters XML 1.0 forbids with U+FFFD.
func xmlEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1, r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0xfffe, r == 0xffff:
			b.WriteRune(utf8.RuneError)
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == '\n' || r == '\r' || r == '\t':
			fmt.Fprintf(&b, "&#%d;", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
