package graphviz

// Style is how a node or an edge is drawn. Colours are CSS hex colours,
// which DOT reads too.
type Style struct {
	// Shape is "box" (drawn with rounded corners), "ellipse" or "note".
	Shape string
	// Fill, Stroke and Text colour the inside, the outline and the label.
	Fill, Stroke, Text string
	// Dash is "", "dashed" or "dotted".
	Dash string
	// Bold draws the outline twice as thick.
	Bold bool
}

// kindStyles colours nodes by their "kind" attribute.
var kindStyles = map[string]Style{
	"expl":    {Shape: "box", Fill: "#dbeafe", Stroke: "#1d4ed8", Text: "#111827"},
	"act":     {Shape: "box", Fill: "#fef3c7", Stroke: "#b45309", Text: "#111827"},
	"entity":  {Shape: "ellipse", Fill: "#ede9fe", Stroke: "#6d28d9", Text: "#111827"},
	"passage": {Shape: "note", Fill: "#f3f4f6", Stroke: "#6b7280", Text: "#111827"},
}

// defaultStyle draws nodes of any other kind.
var defaultStyle = Style{Shape: "box", Fill: "#f3f4f6", Stroke: "#374151", Text: "#111827"}

// StyleOf returns the style of a node from its attributes: "kind" (expl,
// act, entity, passage) picks the shape and colours, and "state" marks
// the episode's life: open (bold), closed (plain), stripped (dashed),
// evicted (dotted and greyed), inferred (dashed) or missing (dotted, no
// fill). A "hop" of 0 (the centre of an ego graph) is bold.
func StyleOf(a Attrs) Style {
	s, ok := kindStyles[a["kind"]]
	if !ok {
		s = defaultStyle
	}
	switch a["state"] {
	case "open":
		s.Bold = true
	case "stripped", "inferred":
		s.Dash = "dashed"
	case "evicted":
		s.Dash, s.Fill, s.Stroke, s.Text = "dotted", "#ffffff", "#9ca3af", "#6b7280"
	case "missing":
		s.Dash, s.Fill = "dotted", "#ffffff"
	}
	if a["hop"] == "0" {
		s.Bold = true
	}
	return s
}

// EdgeStyleOf returns the style of an edge from its attributes: an
// "origin" of inferred or reviewed (a knowledge-graph relation added by a
// session review) draws it dashed, a "state" of evicted dotted and grey.
func EdgeStyleOf(a Attrs) Style {
	s := Style{Stroke: "#4b5563", Text: "#374151"}
	if a["origin"] == "inferred" || a["origin"] == "reviewed" || a["state"] == "inferred" {
		s.Dash = "dashed"
	}
	if a["state"] == "evicted" {
		s.Dash, s.Stroke = "dotted", "#9ca3af"
	}
	return s
}

// dotNodeAttrs returns the Graphviz attributes that draw a node in style s.
func (s Style) dotNodeAttrs() map[string]string {
	style := "filled"
	if s.Shape == "box" {
		style = "rounded,filled"
	}
	if s.Dash != "" {
		style += "," + s.Dash
	}
	out := map[string]string{"shape": s.Shape, "style": style, "fillcolor": s.Fill, "color": s.Stroke, "fontcolor": s.Text}
	if s.Bold {
		out["penwidth"] = "2"
	}
	return out
}

// dotEdgeAttrs returns the Graphviz attributes that draw an edge in
// style s.
func (s Style) dotEdgeAttrs() map[string]string {
	out := map[string]string{"color": s.Stroke, "fontcolor": s.Text}
	if s.Dash != "" {
		out["style"] = s.Dash
	}
	return out
}
