package debug

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
)

// categoryColors are the debugger's colours of the replay categories
// (frontend/src/lib/replay.ts), for charts drawn in Go.
var categoryColors = map[string]string{
	"system": "#8a8f98", "user": "#4f9cf9", "summary": "#b58cff", "assistant": "#39c5a3", "thinking": "#f2c14e",
	"toolCall": "#f08a5d", "toolResult": "#e05a6b", "toolResult.search": "#ffa8b8", "toolResult.read": "#b8325a",
	"toolResult.shell": "#8e3c9e", "toolResult.edit": "#d9779f",
}

// levelColors are the colours of eviction levels 0-4.
var levelColors = []string{"#8a8f98", "#f2c14e", "#f08a5d", "#e05a6b", "#b058ff"}

// chart is the geometry of a timeline drawing.
type chart struct {
	w, h, left, top, right, bottom float64
	n                              int
	ymax                           float64
}

func (c chart) x(k float64) float64 {
	if c.n <= 1 {
		return c.left
	}
	return c.left + (c.right-c.left)*k/float64(c.n-1)
}

func (c chart) y(v float64) float64 { return c.bottom - (c.bottom-c.top)*v/c.ymax }

// TimelineSVG draws a replay timeline as a standalone SVG document: the
// input of each request stacked by category, the uncapped input dashed,
// the τ line, evictions as triangles coloured by level along the top, the
// source agent's compactions, requests over budget along the bottom, and
// a legend. Every text is escaped; session text (episode names) is left
// out.
func TimelineSVG(t *Timeline, width, height int) []byte {
	c := chart{w: float64(width), h: float64(height), left: 64, top: 24, right: float64(width) - 16, bottom: float64(height) - 64, n: len(t.After)}
	for k := range t.After {
		c.ymax = max(c.ymax, float64(t.Before[k]), float64(t.After[k]))
	}
	c.ymax = max(c.ymax*1.05, float64(t.Budget)*1.1, 1)
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#14161c"/>`+"\n")
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(fmt.Sprintf("%s replay at τ=%d (%s, %s episodes)", t.Policy, t.Budget, t.Counter, t.Episodes)))
	writeAxes(&b, c)
	writeStack(&b, c, t)
	writePolyline(&b, c, t.Before, `stroke="#9aa3b2" stroke-dasharray="4 4"`)
	yb := c.y(float64(t.Budget))
	fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ffffff" stroke-width="1.5"/>`+"\n", num(c.left), num(yb), num(c.right), num(yb))
	fmt.Fprintf(&b, `<text x="%s" y="%s" fill="#ffffff" text-anchor="end">τ = %d</text>`+"\n", num(c.right-4), num(yb-4), t.Budget)
	for _, cp := range t.Compactions {
		if cp.Next >= 0 {
			x := c.x(float64(cp.Next) - 0.5)
			fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#c792ea" stroke-dasharray="6 4" stroke-width="2"/>`+"\n", num(x), num(c.top), num(x), num(c.bottom))
		}
	}
	for _, m := range t.Evictions {
		x, y := c.x(float64(m.Request)), c.top+2+float64(m.Level-1)*7
		fmt.Fprintf(&b, `<path d="M%s %sh10l-5 7z" fill="%s"/>`+"\n", num(x-5), num(y), levelColors[min(max(m.Level, 0), 4)])
	}
	for _, o := range t.Unreachable {
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="2" height="6" fill="#ff4d6d"/>`+"\n", num(c.x(float64(o.Request))-1), num(c.bottom-6))
	}
	writeLegend(&b, c, t)
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// writeStack draws the categories as stacked areas, largest first.
func writeStack(b *bytes.Buffer, c chart, t *Timeline) {
	n := len(t.After)
	running := make([]float64, n)
	var layers [][]float64
	var names []string
	for ci, col := range t.Cats {
		nonzero := false
		for k := range n {
			running[k] += float64(col[k])
			nonzero = nonzero || col[k] > 0
		}
		if nonzero {
			layers = append(layers, append([]float64(nil), running...))
			names = append(names, t.Categories[ci])
		}
	}
	for i := len(layers) - 1; i >= 0; i-- {
		var d bytes.Buffer
		fmt.Fprintf(&d, "M%s %s", num(c.x(0)), num(c.bottom))
		for k, v := range layers[i] {
			fmt.Fprintf(&d, "L%s %s", num(c.x(float64(k))), num(c.y(v)))
		}
		fmt.Fprintf(&d, "L%s %sZ", num(c.x(float64(n-1))), num(c.bottom))
		color := categoryColors[names[i]]
		fmt.Fprintf(b, `<path d="%s" fill="%s" fill-opacity="0.8" stroke="%s"><title>%s</title></path>`+"\n", d.String(), color, color, esc(names[i]))
	}
}

func writePolyline(b *bytes.Buffer, c chart, vs []int, style string) {
	var d bytes.Buffer
	for k, v := range vs {
		cmd := "L"
		if k == 0 {
			cmd = "M"
		}
		fmt.Fprintf(&d, "%s%s %s", cmd, num(c.x(float64(k))), num(c.y(float64(v))))
	}
	fmt.Fprintf(b, `<path d="%s" fill="none" %s/>`+"\n", d.String(), style)
}

// writeAxes draws the grid with round ticks.
func writeAxes(b *bytes.Buffer, c chart) {
	for _, v := range ticks(c.ymax, 5) {
		y := c.y(v)
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#2a2f3a"/><text x="%s" y="%s" fill="#9aa3b2" text-anchor="end">%s</text>`+"\n",
			num(c.left), num(y), num(c.right), num(y), num(c.left-6), num(y+4), esc(strconv.FormatFloat(v, 'f', -1, 64)))
	}
	for _, v := range ticks(float64(max(c.n, 1)), 8) {
		if v < 1 || v > float64(c.n) {
			continue
		}
		x := c.x(v - 1)
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#2a2f3a"/><text x="%s" y="%s" fill="#9aa3b2" text-anchor="middle">%s</text>`+"\n",
			num(x), num(c.top), num(x), num(c.bottom), num(x), num(c.bottom+14), esc(strconv.FormatFloat(v, 'f', -1, 64)))
	}
	fmt.Fprintf(b, `<text x="%s" y="%s" fill="#9aa3b2" text-anchor="middle">request</text>`+"\n", num((c.left+c.right)/2), num(c.bottom+28))
}

func writeLegend(b *bytes.Buffer, c chart, t *Timeline) {
	x := c.left
	y := c.h - 14
	for ci, name := range t.Categories {
		nonzero := false
		for _, v := range t.Cats[ci] {
			nonzero = nonzero || v > 0
		}
		if !nonzero {
			continue
		}
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="10" height="10" fill="%s"/><text x="%s" y="%s" fill="#c8cdd6">%s</text>`+"\n",
			num(x), num(y-9), categoryColors[name], num(x+14), num(y), esc(name))
		x += 24 + 6.5*float64(len(name))
	}
}

// ticks returns round values from 0 to top, about n of them.
func ticks(top float64, n int) []float64 {
	raw := top / float64(n)
	step := 1.0
	for step*10 <= raw {
		step *= 10
	}
	for _, m := range []float64{1, 2, 5, 10} {
		if step*m >= raw {
			step *= m
			break
		}
	}
	var out []float64
	for v := 0.0; v <= top; v += step {
		out = append(out, v)
	}
	return out
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func esc(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
