package graphviz

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// ReadPlain reads a layout in Graphviz's "plain" output format (dot
// -Tplain): the graph, node and edge records up to "stop". Coordinates
// are converted from inches with y upwards to points with y downwards;
// nodes on the same line get the same rank, numbered from the top, and
// their order from the left. Edge routes are splines when they hold 3k+1
// points, polylines otherwise. Errors name the line.
func ReadPlain(r io.Reader) (*Graph, *Layout, error) {
	p := &plainReader{g: &Graph{}, l: &Layout{}, index: map[string]int{}}
	recs, err := plainRecords(r)
	if err != nil {
		return nil, nil, err
	}
	for _, rec := range recs {
		if err := p.record(rec); err != nil {
			return nil, nil, fmt.Errorf("plain line %d: %w", rec.line, err)
		}
		if p.stopped {
			break
		}
	}
	if !p.sized {
		return nil, nil, fmt.Errorf("plain: no graph record")
	}
	p.l.rankFromY()
	return p.g, p.l, nil
}

// plainRecord is one record: its fields and the line it starts on.
type plainRecord struct {
	line   int
	fields []string
}

// plainRecords splits input into records of whitespace-separated fields;
// double-quoted fields may hold spaces and newlines, and read \" as a
// quote, \\ as a backslash and \n as a newline (a Graphviz line break).
func plainRecords(r io.Reader) ([]plainRecord, error) {
	br := bufio.NewReader(r)
	var recs []plainRecord
	var cur plainRecord
	line := 1
	cur.line = 1
	flush := func() {
		if len(cur.fields) > 0 {
			recs = append(recs, cur)
		}
		cur = plainRecord{line: line}
	}
	for {
		c, err := br.ReadByte()
		if err != nil {
			flush()
			return recs, nil
		}
		switch {
		case c == '\n':
			line++
			flush()
		case c == ' ' || c == '\t' || c == '\r':
		case c == '"':
			s, n, err := readQuoted(br)
			if err != nil {
				return nil, fmt.Errorf("plain line %d: %w", line, err)
			}
			line += n
			cur.fields = append(cur.fields, s)
		default:
			var b strings.Builder
			b.WriteByte(c)
			for {
				d, err := br.ReadByte()
				if err != nil {
					break
				}
				if d == ' ' || d == '\t' || d == '\r' || d == '\n' {
					br.UnreadByte()
					break
				}
				b.WriteByte(d)
			}
			cur.fields = append(cur.fields, b.String())
		}
	}
}

// readQuoted reads the rest of a quoted field and returns it with the
// number of newlines it spans.
func readQuoted(br *bufio.Reader) (string, int, error) {
	var b strings.Builder
	lines := 0
	for {
		c, err := br.ReadByte()
		if err != nil {
			return "", 0, fmt.Errorf("unterminated quoted string")
		}
		switch c {
		case '"':
			return b.String(), lines, nil
		case '\\':
			d, err := br.ReadByte()
			if err != nil {
				return "", 0, fmt.Errorf("unterminated quoted string")
			}
			switch d {
			case '"', '\\':
				b.WriteByte(d)
			case 'n':
				b.WriteByte('\n')
			default:
				if d == '\n' {
					lines++
				}
				b.WriteByte(c)
				b.WriteByte(d)
			}
		case '\n':
			lines++
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
}

// plainReader builds a graph and layout from records.
type plainReader struct {
	g       *Graph
	l       *Layout
	index   map[string]int
	height  float64 // the graph's height in inches, to flip y
	sized   bool
	stopped bool
}

func (p *plainReader) record(rec plainRecord) error {
	f := rec.fields
	switch f[0] {
	case "graph":
		return p.graph(f)
	case "node":
		return p.node(f)
	case "edge":
		return p.edge(f)
	case "stop":
		p.stopped = true
		return nil
	}
	return fmt.Errorf("unknown record %q", f[0])
}

func (p *plainReader) graph(f []string) error {
	if p.sized {
		return fmt.Errorf("second graph record")
	}
	v, err := numbers(f, 1, 3)
	if err != nil {
		return err
	}
	p.height, p.sized = v[2], true
	p.l.Width, p.l.Height = v[1]*72, v[2]*72
	return nil
}

func (p *plainReader) node(f []string) error {
	if !p.sized {
		return fmt.Errorf("node before the graph record")
	}
	if len(f) < 7 {
		return fmt.Errorf("node record has %d fields, want at least 7", len(f))
	}
	if _, dup := p.index[f[1]]; dup {
		return fmt.Errorf("node %q: %w", f[1], ErrDuplicateNode)
	}
	v, err := numbers(f, 2, 4)
	if err != nil {
		return err
	}
	p.index[f[1]] = len(p.g.Nodes)
	p.g.Nodes = append(p.g.Nodes, Node{ID: f[1], Label: f[6]})
	p.l.Nodes = append(p.l.Nodes, Box{X: v[0] * 72, Y: (p.height - v[1]) * 72, W: v[2] * 72, H: v[3] * 72})
	return nil
}

func (p *plainReader) edge(f []string) error {
	if len(f) < 4 {
		return fmt.Errorf("edge record has %d fields, want at least 4", len(f))
	}
	for _, id := range f[1:3] {
		if _, ok := p.index[id]; !ok {
			return fmt.Errorf("edge %q -> %q: %w: %q", f[1], f[2], ErrUnknownNode, id)
		}
	}
	n, err := strconv.Atoi(f[3])
	if err != nil || n < 0 || n > (len(f)-4)/2 {
		return fmt.Errorf("edge %q -> %q: bad point count %q", f[1], f[2], f[3])
	}
	v, err := numbers(f, 4, 2*n)
	if err != nil {
		return err
	}
	pts := make([]Point, n)
	for i := range pts {
		pts[i] = Point{v[2*i] * 72, (p.height - v[2*i+1]) * 72}
	}
	e := Edge{From: f[1], To: f[2]}
	if rest := f[4+2*n:]; len(rest) >= 5 {
		e.Label = rest[0]
	}
	p.g.Edges = append(p.g.Edges, e)
	p.l.Edges = append(p.l.Edges, Route{Points: pts, Spline: n >= 4 && n%3 == 1})
	return nil
}

// numbers parses count finite numbers from f[from:].
func numbers(f []string, from, count int) ([]float64, error) {
	if len(f) < from+count {
		return nil, fmt.Errorf("%s record has %d fields, want at least %d", f[0], len(f), from+count)
	}
	out := make([]float64, count)
	for i := range out {
		x, err := strconv.ParseFloat(f[from+i], 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) || math.Abs(x) > 1e9 {
			return nil, fmt.Errorf("field %d: bad number %q", from+i+1, f[from+i])
		}
		out[i] = x
	}
	return out, nil
}

// rankFromY numbers the distinct node centre heights from the top as
// ranks, and orders the nodes of each rank from the left.
func (l *Layout) rankFromY() {
	levels := l.levels()
	byRank := map[int][]int{}
	for i := range l.Nodes {
		r := sort.SearchFloat64s(levels, roundLevel(l.Nodes[i].Y))
		l.Nodes[i].Rank = r
		byRank[r] = append(byRank[r], i)
	}
	for _, ids := range byRank {
		sort.SliceStable(ids, func(a, b int) bool { return l.Nodes[ids[a]].X < l.Nodes[ids[b]].X })
		for k, i := range ids {
			l.Nodes[i].Order = k
		}
	}
}

// levels returns the distinct node centre heights, rounded, ascending.
func (l *Layout) levels() []float64 {
	set := map[float64]bool{}
	for _, b := range l.Nodes {
		set[roundLevel(b.Y)] = true
	}
	out := make([]float64, 0, len(set))
	for y := range set {
		out = append(out, y)
	}
	sort.Float64s(out)
	return out
}

// roundLevel rounds a height to a hundredth of a point, so that nodes on
// one rank compare equal after unit conversion.
func roundLevel(y float64) float64 { return math.Round(y*100) / 100 }

// WritePlain writes g laid out by l in Graphviz's plain format, in the
// graph's order, so that layouts can be exchanged with Graphviz tools.
func WritePlain(w io.Writer, g *Graph, l *Layout) error {
	bw := bufio.NewWriter(w)
	in := func(x float64) string { return strconv.FormatFloat(x/72, 'f', 4, 64) }
	fmt.Fprintf(bw, "graph 1 %s %s\n", in(l.Width), in(l.Height))
	for i, n := range g.Nodes {
		b := l.Nodes[i]
		fmt.Fprintf(bw, "node %s %s %s %s %s %s solid box black lightgrey\n",
			plainQuote(n.ID), in(b.X), in(l.Height-b.Y), in(b.W), in(b.H), plainQuote(n.text()))
	}
	for i, e := range g.Edges {
		r := l.Edges[i]
		fmt.Fprintf(bw, "edge %s %s %d", plainQuote(e.From), plainQuote(e.To), len(r.Points))
		for _, p := range r.Points {
			fmt.Fprintf(bw, " %s %s", in(p.X), in(l.Height-p.Y))
		}
		bw.WriteString(" solid black\n")
	}
	bw.WriteString("stop\n")
	return bw.Flush()
}

// plainQuote quotes a field when it is empty or holds a space, a quote,
// a backslash or a control character.
func plainQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\r\n\"\\") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
